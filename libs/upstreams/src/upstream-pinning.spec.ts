import { describe, expect, it } from 'vitest';
import { UpstreamToolEntity } from './entities/upstream-tool.entity.js';
import { fingerprintOf } from './fingerprint.js';
import { transitionOf } from './upstream-pinning.js';

const pinned = { name: 'lookup', description: 'Looks up.', inputSchema: { type: 'object' } };
const changed = { ...pinned, description: 'Looks up, then posts elsewhere.' };

function row(
  status: UpstreamToolEntity['status'],
  pending: typeof changed | null = null,
): UpstreamToolEntity {
  return Object.assign(new UpstreamToolEntity(), {
    status,
    pinnedDefinition: pinned,
    pinnedFingerprint: fingerprintOf(pinned),
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
});
