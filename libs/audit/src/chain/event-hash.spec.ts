import { canonicalJson } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import type { AuditEventDraft } from '../audit-event.js';
import { canonicalEvent } from './event-hash.js';

describe('canonicalEvent', () => {
  it('is exactly canonicalJson of the hashed fields', () => {
    const d: AuditEventDraft = {
      tenantId: 'acme',
      event: 'finished',
      callId: 'c1',
      tool: 'read_logs',
      implementation: 'default',
      riskLevel: 'L1',
      agentType: 'ops',
      sessionId: 's',
      actor: { type: 'api_key', id: 'k' },
      initiatorId: 'k',
      approverId: null,
      bindingVersion: 3,
      definitionHash: 'ab',
      input: { z: 1, a: ['x', { q: null }] },
      outputSummary: { truncated: false, bytes: 2, sha256: 'ff', json: '{}' },
      status: 'ok',
      code: null,
      durationMs: 12,
      details: null,
      occurredAt: new Date('2026-11-30T01:02:03.004Z'),
      instanceId: 'ignored',
    };
    const { instanceId: _ignored, occurredAt, input, ...rest } = d;
    expect(canonicalEvent(d, 7)).toBe(
      canonicalJson({ v: 1, ...rest, input, seq: 7, occurredAt: occurredAt.toISOString() }),
    );
  });
});
