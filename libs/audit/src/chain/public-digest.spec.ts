import { generateKeyPairSync } from 'node:crypto';
import { canonicalJson, sha256Hex } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../audit-event.js';
import { draftEvent, type AuditEventRecord } from '../audit-fields.js';
import { ChainWalk } from './chain-walk.js';
import { checkpointPayload, CheckpointSigner } from './checkpoint-signer.js';
import { canonicalEvent, deriveChainKey, eventHash, publicCanonical } from './event-hash.js';
import { nextPublicDigest } from './public-digest.js';

const KEY = deriveChainKey('the audit secret');

function chain(n: number): AuditEventRecord[] {
  const out: AuditEventRecord[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const d = draftEvent({
      tenantId: 'acme',
      event: 'key_created',
      actor: { type: 'system', id: 'test' },
      details: { n: seq, nested: { b: 1, a: [1, 'x'] } },
      occurredAt: new Date(1_700_000_000_000 + seq),
    });
    const hash = eventHash(KEY, prev, d, seq);
    out.push({ ...d, id: String(seq), seq, prevHash: prev, hash });
    prev = hash;
  }
  return out;
}

describe('the public digest (ADR 030)', () => {
  it('is canonicalJson of the hashed fields without the link version', () => {
    const [e] = chain(1);
    const { id: _id, instanceId: _i, prevHash: _p, hash: _h, occurredAt, ...fields } = e!;
    expect(publicCanonical(e!, 1)).toBe(canonicalJson({ ...fields, occurredAt: occurredAt.toISOString() }));
    expect(canonicalEvent(e!, 1)).toBe(`${publicCanonical(e!, 1).slice(0, -1)},"v":2}`);
  });

  it('is what a walk seeded with a digest carries, recomputable from the events alone', () => {
    const events = chain(5);
    const walk = new ChainWalk(KEY, { seq: 2, hash: events[1]!.hash, keyed: true, digest: events[1]!.hash });
    for (const e of events.slice(2)) expect(walk.step(e)).toBeNull();
    let d = events[1]!.hash;
    for (const e of events.slice(2)) d = nextPublicDigest(d, e.prevHash, e.hash, publicCanonical(e, e.seq));
    expect(walk.at.digest).toBe(d);
    // A walk that was not seeded keeps none (verification does not pay for it).
    const plain = new ChainWalk(KEY);
    for (const e of events) plain.step(e);
    expect(plain.at.digest).toBeUndefined();
  });

  it('changes with any edit, removal or reorder inside the stretch', () => {
    const events = chain(4);
    const digest = (es: AuditEventRecord[]) =>
      es.reduce((d, e) => nextPublicDigest(d, e.prevHash, e.hash, publicCanonical(e, e.seq)), GENESIS_HASH);
    const whole = digest(events);
    expect(digest([events[0]!, events[2]!, events[3]!])).not.toBe(whole);
    expect(digest([events[1]!, events[0]!, events[2]!, events[3]!])).not.toBe(whole);
    expect(digest(events.map((e, i) => (i === 2 ? { ...e, tool: 'x' } : e)))).not.toBe(whole);
  });

  it('is covered by version-2 checkpoint signatures; version 1 statements sign what they always did', () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const signer = new CheckpointSigner(pem);
    const v1 = { tenantId: 'acme', seq: 3, headHash: 'h', signedAt: '2026-01-01T00:00:00.000Z' };
    expect(checkpointPayload(v1).toString()).toBe(canonicalJson({ v: 1, ...v1 }));
    const v2 = { ...v1, fromSeq: 0, fromHash: GENESIS_HASH, publicDigest: sha256Hex('x') };
    const signature = signer.sign(v2);
    expect(signer.verify(v2, signature)).toBe(true);
    expect(signer.verify({ ...v2, publicDigest: sha256Hex('y') }, signature)).toBe(false);
    expect(signer.verify({ ...v2, fromSeq: 1 }, signature)).toBe(false);
    expect(signer.verify(v1, signature)).toBe(false);
  });
});
