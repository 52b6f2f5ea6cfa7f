import { createHash, generateKeyPairSync } from 'node:crypto';
import { canonicalJson, sha256Hex } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../audit-event.js';
import { draftEvent, type AuditEventRecord } from '../audit-fields.js';
import { ChainWalk } from './chain-walk.js';
import { checkpointPayload, CheckpointSigner } from './checkpoint-signer.js';
import { canonicalEvent, deriveLinkKeys, eventHash, publicCanonical } from './event-hash.js';
import { nextPublicDigest } from './public-digest.js';
import { generateSm2PrivateKeyPem } from './sm2.js';

const KEYS = deriveLinkKeys('the audit secret');
const KEY = KEYS.sha256;

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
    const walk = new ChainWalk(KEYS, { seq: 2, hash: events[1]!.hash, keyed: true, digest: events[1]!.hash });
    for (const e of events.slice(2)) expect(walk.step(e)).toBeNull();
    let d = events[1]!.hash;
    for (const e of events.slice(2)) d = nextPublicDigest(d, e.prevHash, e.hash, publicCanonical(e, e.seq));
    expect(walk.at.digest).toBe(d);
    // A walk that was not seeded keeps none (verification does not pay for it).
    const plain = new ChainWalk(KEYS);
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

describe('SM checkpoints (ADR 040)', () => {
  const ed25519Pem = generateKeyPairSync('ed25519')
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  const sm2Pem = generateSm2PrivateKeyPem();

  it('carry an SM3 public digest when the walk is told so', () => {
    const events = chain(4);
    const walk = new ChainWalk(
      KEYS,
      { seq: 1, hash: events[0]!.hash, keyed: true, digest: events[0]!.hash },
      'sm3',
    );
    for (const e of events.slice(1)) expect(walk.step(e)).toBeNull();
    let d = events[0]!.hash;
    for (const e of events.slice(1))
      d = createHash('sm3')
        .update(`${d}\n${e.prevHash}\n${e.hash}\n${publicCanonical(e, e.seq)}`)
        .digest('hex');
    expect(walk.at.digest).toBe(d);
    expect(d).not.toBe(
      events
        .slice(1)
        .reduce(
          (x, e) => nextPublicDigest(x, e.prevHash, e.hash, publicCanonical(e, e.seq)),
          events[0]!.hash,
        ),
    );
  });

  it('sign a v3 statement naming its algorithm with SM2, and verify beside Ed25519 ones', () => {
    const sm = new CheckpointSigner(ed25519Pem, { suite: 'sm', sm2PrivateKeyPem: sm2Pem });
    const standard = new CheckpointSigner(ed25519Pem, { sm2PrivateKeyPem: sm2Pem });
    expect(sm.algorithm).toBe('sm2-sm3');
    expect(sm.keyId).toMatch(/^sm2:[0-9a-f]{16}$/);
    expect(standard.keyId).toMatch(/^ed25519:/);
    const base = { tenantId: 'acme', seq: 3, headHash: 'h', signedAt: '2026-01-01T00:00:00.000Z' };
    const v3 = {
      ...base,
      algorithm: 'sm2-sm3' as const,
      fromSeq: 0,
      fromHash: GENESIS_HASH,
      publicDigest: 'd'.repeat(64),
    };
    expect(checkpointPayload(v3).toString()).toBe(canonicalJson({ v: 3, ...v3 }));
    const smSignature = sm.sign(v3);
    const { algorithm: _a, ...v2 } = v3;
    const edSignature = standard.sign(v2);
    // Each verifies under the key its algorithm names, whichever suite the gateway signs with now.
    for (const signer of [sm, standard]) {
      expect(signer.verify(v3, smSignature)).toBe(true);
      expect(signer.verify(v2, edSignature)).toBe(true);
      expect(signer.verify(v2, smSignature)).toBe(false);
      expect(signer.verify(v3, edSignature)).toBe(false);
      expect(signer.verify({ ...v3, publicDigest: 'e'.repeat(64) }, smSignature)).toBe(false);
    }
    expect(standard.publicKeys().map((k) => k.algorithm)).toEqual(['Ed25519', 'SM2']);
    expect(new CheckpointSigner(ed25519Pem).publicKeys().map((k) => k.algorithm)).toEqual(['Ed25519']);
    expect(() => new CheckpointSigner(ed25519Pem, { suite: 'sm' })).toThrow(/SM2 signing key/);
  });
});
