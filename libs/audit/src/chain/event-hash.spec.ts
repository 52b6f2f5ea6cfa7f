import { createHash, createHmac } from 'node:crypto';
import { canonicalJson } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import type { AuditEventDraft, AuditEventRecord } from '../audit-event.js';
import { canonicalEvent, deriveChainKey, eventHash, linkVersionOf, unkeyedEventHash } from './event-hash.js';

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
const PREV = 'a'.repeat(64);
const KEY = deriveChainKey('the audit secret');

/** The canonical form spelled out with the generic canonicalJson, as an outside checker would. */
function expectedCanonical(draft: AuditEventDraft, seq: number, v: number): string {
  const { instanceId: _ignored, occurredAt, ...rest } = draft;
  return canonicalJson({ v, ...rest, seq, occurredAt: occurredAt.toISOString() });
}

const stored = (hash: string, draft: AuditEventDraft = d): AuditEventRecord => ({
  ...draft,
  id: '1',
  seq: 7,
  prevHash: PREV,
  hash,
});

describe('canonicalEvent', () => {
  it('is exactly canonicalJson of the hashed fields, version 2 unless asked for 1', () => {
    expect(canonicalEvent(d, 7)).toBe(expectedCanonical(d, 7, 2));
    expect(canonicalEvent(d, 7, 1)).toBe(expectedCanonical(d, 7, 1));
  });
});

describe('deriveChainKey', () => {
  it('is HMAC-SHA256(secret, "toolgate/audit-chain/v2"), apart from the fingerprint keys', () => {
    const secret = 'the audit secret';
    expect(KEY).toEqual(createHmac('sha256', secret).update('toolgate/audit-chain/v2').digest());
    expect(KEY).not.toEqual(createHmac('sha256', secret).update('tenant:acme').digest());
  });
});

describe('eventHash', () => {
  it('is HMAC-SHA256 under the chain key over prevHash, a newline and the v2 canonical form', () => {
    const expected = createHmac('sha256', KEY)
      .update(`${PREV}\n${expectedCanonical(d, 7, 2)}`)
      .digest('hex');
    expect(eventHash(KEY, PREV, d, 7)).toBe(expected);
  });

  it('keeps the legacy formula: plain SHA-256 over the v1 canonical form', () => {
    const expected = createHash('sha256')
      .update(`${PREV}\n${expectedCanonical(d, 7, 1)}`)
      .digest('hex');
    expect(unkeyedEventHash(PREV, d, 7)).toBe(expected);
  });
});

describe('linkVersionOf', () => {
  it('recognises a keyed link and a legacy link', () => {
    expect(linkVersionOf(KEY, stored(eventHash(KEY, PREV, d, 7)))).toBe(2);
    expect(linkVersionOf(KEY, stored(unkeyedEventHash(PREV, d, 7)))).toBe(1);
  });

  it('recognises neither a v2 form hashed without the key, another key, nor an edited event', () => {
    const plainV2 = createHash('sha256')
      .update(`${PREV}\n${canonicalEvent(d, 7, 2)}`)
      .digest('hex');
    expect(linkVersionOf(KEY, stored(plainV2))).toBeNull();
    expect(linkVersionOf(KEY, stored(eventHash(deriveChainKey('another secret'), PREV, d, 7)))).toBeNull();
    const edited = stored(eventHash(KEY, PREV, d, 7), { ...d, input: { z: 2 } });
    expect(linkVersionOf(KEY, edited)).toBeNull();
  });
});
