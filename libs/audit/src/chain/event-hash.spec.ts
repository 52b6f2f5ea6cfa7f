import { createHash, createHmac } from 'node:crypto';
import { canonicalJson } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import { AUDIT_FIELD_ENTRIES, type AuditEventDraft, type AuditEventRecord } from '../audit-fields.js';
import {
  canonicalEvent,
  deriveChainKey,
  deriveLinkKeys,
  deriveSmChainKey,
  eventHash,
  linkVersionOf,
  smEventHash,
  unkeyedEventHash,
} from './event-hash.js';

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
/** An admin event: most fields null, Unicode in its details, an approver, on the platform chain. */
const admin: AuditEventDraft = {
  tenantId: '_platform',
  event: 'key_created',
  callId: null,
  tool: null,
  implementation: null,
  riskLevel: null,
  agentType: null,
  sessionId: null,
  actor: { type: 'user', id: 'admin-1' },
  initiatorId: null,
  approverId: 'u2',
  bindingVersion: null,
  definitionHash: null,
  input: null,
  outputSummary: null,
  status: null,
  code: null,
  durationMs: null,
  details: { keyId: 'k9', name: '已记录 ✓' },
  occurredAt: new Date('2026-01-02T03:04:05.000Z'),
  instanceId: null,
};
const PREV = 'a'.repeat(64);
const KEY = deriveChainKey('the audit secret');
const KEYS = deriveLinkKeys('the audit secret');

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

describe('golden digests', () => {
  // Computed once with the code that wrote the existing trails: stored chains verify only while
  // these bytes stay the same, whatever is refactored around the hash.
  it('keeps the v2 and v1 digests of a call event', () => {
    expect(eventHash(KEY, PREV, d, 7)).toBe(
      'd5c869bdf7bc9f720fc211c6be1444c6e2f85d9d66db6670f7affcaf847fa588',
    );
    expect(unkeyedEventHash(PREV, d, 7)).toBe(
      '1bf30053acaed7fce2ed5578e9e1dd1e4e60082f4540e550c38f1ec4eb358e1b',
    );
  });

  it('keeps the v2 and v1 digests of an admin event at the head of a chain', () => {
    const genesis = '0'.repeat(64);
    expect(eventHash(KEY, genesis, admin, 1)).toBe(
      'fcfce91f1414ba62b0afb91c60277fe17a7c55a5e03934e378a8e2162f2fc42f',
    );
    expect(unkeyedEventHash(genesis, admin, 1)).toBe(
      '0ee0682e2110e499c741ea08cc14294e4702d619629e9abb9032838bac45d2ec',
    );
  });
});

describe('the field table against the canonical form', () => {
  it('marks as hashed exactly the fields the canonical form lists (besides its version)', () => {
    const { v: _version, ...listed } = JSON.parse(canonicalEvent(d, 7)) as Record<string, unknown>;
    const hashed = AUDIT_FIELD_ENTRIES.filter(([, f]) => f.hashed).map(([name]) => name);
    expect(Object.keys(listed).sort()).toEqual(hashed.sort());
  });
});

describe('deriveChainKey', () => {
  it('is HMAC-SHA256(secret, "toolgate/audit-chain/v2"), apart from the fingerprint keys', () => {
    const secret = 'the audit secret';
    expect(KEY).toEqual(createHmac('sha256', secret).update('toolgate/audit-chain/v2').digest());
    expect(KEY).not.toEqual(createHmac('sha256', secret).update('tenant:acme').digest());
  });
});

describe('deriveSmChainKey (ADR 040)', () => {
  it('is HMAC-SM3(secret, "toolgate/audit-chain/v3"), apart from the SHA-256 chain key', () => {
    const secret = 'the audit secret';
    expect(KEYS.sm3).toEqual(createHmac('sm3', secret).update('toolgate/audit-chain/v3').digest());
    expect(deriveSmChainKey(secret)).toEqual(KEYS.sm3);
    expect(KEYS.sha256).toEqual(KEY);
    expect(KEYS.sm3).not.toEqual(KEY);
  });
});

describe('smEventHash (ADR 040)', () => {
  it('is HMAC-SM3 under the SM chain key over prevHash, a newline and the v3 canonical form', () => {
    const expected = createHmac('sm3', KEYS.sm3)
      .update(`${PREV}\n${expectedCanonical(d, 7, 3)}`)
      .digest('hex');
    expect(smEventHash(KEYS.sm3, PREV, d, 7)).toBe(expected);
    expect(expected).not.toBe(eventHash(KEY, PREV, d, 7));
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
    expect(linkVersionOf(KEYS, stored(eventHash(KEY, PREV, d, 7)))).toBe(2);
    expect(linkVersionOf(KEYS, stored(unkeyedEventHash(PREV, d, 7)))).toBe(1);
  });

  it('recognises an HMAC-SM3 link whichever version it tries first', () => {
    const sm = stored(smEventHash(KEYS.sm3, PREV, d, 7));
    expect(linkVersionOf(KEYS, sm)).toBe(3);
    expect(linkVersionOf(KEYS, sm, 3)).toBe(3);
    expect(linkVersionOf(KEYS, stored(eventHash(KEY, PREV, d, 7)), 3)).toBe(2);
    // The version is inside the hashed text: an SM3 HMAC over the v2 form is no link.
    const smOverV2 = createHmac('sm3', KEYS.sm3)
      .update(`${PREV}\n${canonicalEvent(d, 7, 2)}`)
      .digest('hex');
    expect(linkVersionOf(KEYS, stored(smOverV2))).toBeNull();
  });

  it('recognises neither a v2 form hashed without the key, another key, nor an edited event', () => {
    const plainV2 = createHash('sha256')
      .update(`${PREV}\n${canonicalEvent(d, 7, 2)}`)
      .digest('hex');
    expect(linkVersionOf(KEYS, stored(plainV2))).toBeNull();
    expect(linkVersionOf(KEYS, stored(eventHash(deriveChainKey('another secret'), PREV, d, 7)))).toBeNull();
    const edited = stored(eventHash(KEY, PREV, d, 7), { ...d, input: { z: 2 } });
    expect(linkVersionOf(KEYS, edited)).toBeNull();
  });
});
