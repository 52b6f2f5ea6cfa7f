import { describe, expect, it } from 'vitest';
import { UpstreamToolEntity } from './entities/upstream-tool.entity.js';
import { FINGERPRINT_VERSION, fingerprintOf } from './fingerprint.js';
import type { UpstreamCallPlan, UpstreamToolDefinition } from './sources/tool-source.js';
import { transitionOf } from './upstream-pinning.js';

const pinned = { name: 'lookup', description: 'Looks up.', inputSchema: { type: 'object' } };
const changed = { ...pinned, description: 'Looks up, then posts elsewhere.' };

function row(
  status: UpstreamToolEntity['status'],
  pending: UpstreamToolDefinition | null = null,
  pinnedDefinition: UpstreamToolDefinition = pinned,
  fingerprintVersion = FINGERPRINT_VERSION,
): UpstreamToolEntity {
  return Object.assign(new UpstreamToolEntity(), {
    status,
    fingerprintVersion,
    pinnedDefinition,
    pinnedFingerprint: fingerprintOf(pinnedDefinition),
    pendingDefinition: pending,
    pendingFingerprint: pending ? fingerprintOf(pending) : null,
  });
}

describe('what a refresh does to an imported tool', () => {
  it('leaves an unchanged active tool alone', () => {
    expect(transitionOf(row('active'), pinned)).toBeNull();
  });

  it('quarantines a changed definition, keeping it as pending', () => {
    expect(transitionOf(row('active'), changed)).toEqual({
      kind: 'quarantined',
      change: {
        status: 'quarantined',
        pendingDefinition: changed,
        pendingFingerprint: fingerprintOf(changed),
      },
    });
  });

  it('records nothing new while the same pending change waits for review', () => {
    expect(transitionOf(row('quarantined', changed), changed)).toBeNull();
  });

  it('replaces the pending definition when the upstream changes again', () => {
    const again = { ...pinned, description: 'Third version.' };
    expect(transitionOf(row('quarantined', changed), again)?.change.pendingFingerprint).toBe(
      fingerprintOf(again),
    );
  });

  it('keeps a quarantined tool for review even when the upstream reverts', () => {
    expect(transitionOf(row('quarantined', changed), pinned)).toBeNull();
  });

  it('removes a tool gone upstream, and restores it only when it returns unchanged', () => {
    expect(transitionOf(row('active'), undefined)?.kind).toBe('removed');
    expect(transitionOf(row('removed'), undefined)).toBeNull();
    expect(transitionOf(row('removed'), pinned)?.kind).toBe('restored');
    expect(transitionOf(row('removed'), changed)?.kind).toBe('quarantined');
  });

  it('quarantines a moved call plan (method, path, base, parameters, body) like any other change', () => {
    const planned = { ...operation, callPlan: plan };
    for (const moved of [
      { ...plan, method: 'PATCH' },
      { ...plan, path: '/danger/customers/{id}/erase' },
      { ...plan, baseUrl: 'https://crm.example/danger' },
      { ...plan, body: { ...plan.body!, contentType: 'application/merge-patch+json' } },
    ]) {
      expect(transitionOf(row('active', null, planned), { ...planned, callPlan: moved })?.kind).toBe(
        'quarantined',
      );
    }
  });

  it('re-pins a scheme-1 tool with the plan its unchanged definition implies, once', () => {
    const legacy = row('active', null, operation, 1);
    const live = { ...operation, callPlan: plan };
    expect(transitionOf(legacy, live)).toEqual({
      kind: 'repinned',
      change: {
        status: 'active',
        pinnedDefinition: live,
        pinnedFingerprint: fingerprintOf(live),
        fingerprintVersion: FINGERPRINT_VERSION,
      },
    });
    expect(transitionOf(row('removed', null, operation, 1), live)?.kind).toBe('restored');
  });

  it('quarantines a scheme-1 tool whose definition changed, or whose plan contradicts it', () => {
    const live = { ...operation, callPlan: plan };
    const described = { ...live, description: 'Creates an order, then erases the customer.' };
    expect(transitionOf(row('active', null, operation, 1), described)?.kind).toBe('quarantined');
    // Annotations made from POST cannot have been a DELETE; a dropped argument is not the same plan.
    const deleting = { ...live, callPlan: { ...plan, method: 'DELETE' } };
    expect(transitionOf(row('active', null, operation, 1), deleting)?.kind).toBe('quarantined');
    const rewired = { ...live, callPlan: { ...plan, body: null } };
    expect(transitionOf(row('active', null, operation, 1), rewired)?.kind).toBe('quarantined');
    // A quarantined one stays for review: its new pending definition carries the plan.
    expect(transitionOf(row('quarantined', changed, operation, 1), live)?.kind).toBe('quarantined');
  });
});

/** An OpenAPI operation as scheme 1 pinned it (no call plan) and the plan its document has. */
const operation: UpstreamToolDefinition = {
  name: 'create_order',
  description: 'Places an order.',
  inputSchema: { type: 'object', properties: { id: { type: 'string' }, body: { type: 'object' } } },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
};
const plan: UpstreamCallPlan = {
  method: 'POST',
  baseUrl: 'https://crm.example/api',
  path: '/customers/{id}',
  parameters: [
    { name: 'id', in: 'path', argName: 'id', required: true, style: 'simple', explode: false, json: false },
  ],
  body: { argName: 'body', required: true, contentType: 'application/json' },
};
