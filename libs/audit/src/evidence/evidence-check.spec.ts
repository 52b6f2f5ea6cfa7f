import { generateKeyPairSync } from 'node:crypto';
import { sha256Hex } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../audit-event.js';
import { draftEvent, type AuditEventRecord } from '../audit-fields.js';
import { CheckpointSigner } from '../chain/checkpoint-signer.js';
import type { CryptoSuite } from '../chain/crypto-suite.js';
import { deriveLinkKeys, eventHash, publicCanonical, smEventHash } from '../chain/event-hash.js';
import { nextPublicDigest } from '../chain/public-digest.js';
import { generateSm2PrivateKeyPem } from '../chain/sm2.js';
import { checkEvidence } from './evidence-check.js';
import { EVIDENCE_KIND, evidenceLine } from './evidence-format.js';
import { unzipFiles, zipFiles } from './zip.js';

const KEYS = deriveLinkKeys('secret');
const ED25519_PEM = generateKeyPairSync('ed25519')
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const SM2_PEM = generateSm2PrivateKeyPem();
const signer = new CheckpointSigner(ED25519_PEM);
/** The same gateway after `audit.cryptoSuite: sm` (ADR 040): both keys, signing with SM2. */
const smSigner = new CheckpointSigner(ED25519_PEM, { suite: 'sm', sm2PrivateKeyPem: SM2_PEM });

/** Events 1…n; those after `smFrom` with HMAC-SM3 links, as after a switch of suite. */
function chain(n: number, smFrom = Infinity): AuditEventRecord[] {
  const out: AuditEventRecord[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const d = draftEvent({
      tenantId: 'acme',
      event: 'key_created',
      actor: { type: 'system', id: 't' },
      details: { seq, 名: '张三' },
      occurredAt: new Date(1_700_000_000_000 + seq),
    });
    const hash = seq > smFrom ? smEventHash(KEYS.sm3, prev, d, seq) : eventHash(KEYS.sha256, prev, d, seq);
    out.push({ ...d, id: String(100 + seq), seq, prevHash: prev, hash });
    prev = hash;
  }
  return out;
}

/**
 * A bundle as the gateway builds it: two checkpoints, stretches (0, 3] and (3, 6], each signed
 * under the suite given for it; the manifest by the last one's key.
 */
function bundle(
  events = chain(6),
  suites: readonly [CryptoSuite, CryptoSuite] = ['standard', 'standard'],
): Map<string, Buffer> {
  const lines: string[] = [];
  const checkpoints = [];
  const sm = suites.includes('sm');
  const last = suites[1] === 'sm' ? smSigner : signer;
  for (const [i, [from, to]] of (
    [
      [0, 3],
      [3, 6],
    ] as const
  ).entries()) {
    const by = suites[i] === 'sm' ? smSigner : signer;
    const fromHash = from ? events[from - 1]!.hash : GENESIS_HASH;
    let d = fromHash;
    for (const e of events.slice(from, to)) {
      d = nextPublicDigest(
        d,
        e.prevHash,
        e.hash,
        publicCanonical(e, e.seq),
        suites[i] === 'sm' ? 'sm3' : 'sha256',
      );
      lines.push(evidenceLine(e, d));
    }
    const statement = {
      tenantId: 'acme',
      seq: to,
      headHash: events[to - 1]!.hash,
      signedAt: '2026-01-01T00:00:00.000Z',
      ...(suites[i] === 'sm' ? { algorithm: 'sm2-sm3' as const } : {}),
      fromSeq: from,
      fromHash,
      publicDigest: d,
    };
    checkpoints.push({ ...statement, keyId: by.keyId, signature: by.sign(statement) });
  }
  const files = new Map<string, Buffer>([
    ['events.jsonl', Buffer.from(`${lines.join('\n')}\n`)],
    ['checkpoints.json', Buffer.from(JSON.stringify(checkpoints))],
    ['public-keys.json', Buffer.from(JSON.stringify({ keys: (sm ? smSigner : signer).publicKeys() }))],
    ['README.md', Buffer.from('readme')],
  ]);
  const manifest = Buffer.from(
    JSON.stringify({
      kind: EVIDENCE_KIND,
      version: 1,
      tenantId: 'acme',
      from: null,
      to: null,
      firstSeq: 1,
      lastSeq: 6,
      events: 6,
      generatedAt: '2026-01-01T00:00:00.000Z',
      keyId: last.keyId,
      files: [...files].map(([name, body]) => ({ name, bytes: body.length, sha256: sha256Hex(body) })),
    }),
  );
  files.set('manifest.json', manifest);
  files.set('manifest.sig', Buffer.from(last.signDocument(manifest)));
  return files;
}

/** The bundle with one event line replaced, and the manifest re-hashed and re-signed. */
function edited(
  files: Map<string, Buffer>,
  edit: (lines: any[]) => void,
  by: CheckpointSigner = signer,
): Map<string, Buffer> {
  const lines = files
    .get('events.jsonl')!
    .toString()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  edit(lines);
  const events = Buffer.from(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const manifest = JSON.parse(files.get('manifest.json')!.toString());
  manifest.files = manifest.files.map((f: any) =>
    f.name === 'events.jsonl' ? { ...f, bytes: events.length, sha256: sha256Hex(events) } : f,
  );
  const m = Buffer.from(JSON.stringify(manifest));
  return new Map(files)
    .set('events.jsonl', events)
    .set('manifest.json', m)
    .set('manifest.sig', Buffer.from(by.signDocument(m)));
}

describe('checkEvidence (ADR 030)', () => {
  it('verifies an untouched bundle, through a ZIP round trip', () => {
    const files = unzipFiles(zipFiles([...bundle()].map(([name, data]) => ({ name, data }))));
    expect(checkEvidence(files)).toMatchObject({
      ok: true,
      exitCode: 0,
      events: 6,
      verified: 6,
      problems: [],
    });
    expect(checkEvidence(files, signer.publicKeyPem()).exitCode).toBe(0);
  });

  it('names the event whose content changed, even with the manifest re-signed', () => {
    const report = checkEvidence(edited(bundle(), (l) => (l[4].details.seq = 99)));
    expect(report).toMatchObject({ ok: false, exitCode: 1, firstTampered: { seq: 5, id: '105' } });
  });

  it('names the stretch when every exported digest was recomputed too', () => {
    const report = checkEvidence(
      edited(bundle(), (lines) => {
        lines[4].details.seq = 99;
        let d = lines[2].hash; // the second stretch starts from the hash of seq 3
        for (const l of lines.slice(3))
          l.publicDigest = d = nextPublicDigest(
            d,
            l.prevHash,
            l.hash,
            publicCanonical({ ...l, occurredAt: new Date(l.occurredAt) }, l.seq),
          );
      }),
    );
    expect(report).toMatchObject({ exitCode: 1, firstTampered: { seq: 4, id: '104' } });
    expect(report.problems[0]!.message).toContain('seq 4–6');
  });

  it('notices a removed event, a bad manifest and another key', () => {
    expect(checkEvidence(edited(bundle(), (l) => l.splice(2, 1))).exitCode).toBe(1);
    const files = bundle().set('README.md', Buffer.from('changed'));
    expect(checkEvidence(files).problems).toEqual([
      { message: 'README.md does not match the SHA-256 in the manifest' },
    ]);
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(checkEvidence(bundle(), other).exitCode).toBe(1);
    expect(checkEvidence(new Map()).exitCode).toBe(2);
  });
});

describe('checkEvidence with SM2 / SM3 checkpoints (ADR 040)', () => {
  const switched = () => bundle(chain(6, 3), ['standard', 'sm']);
  const smPublicPem = smSigner.publicKeys().find((k) => k.algorithm === 'SM2')!.publicKeyPem;

  it('verifies a bundle whose chain switched suite mid-way: an Ed25519 stretch, then an SM2 one', () => {
    const files = unzipFiles(zipFiles([...switched()].map(([name, data]) => ({ name, data }))));
    const checkpoints = JSON.parse(files.get('checkpoints.json')!.toString());
    expect(checkpoints.map((c: any) => [c.algorithm, c.keyId.split(':')[0]])).toEqual([
      [undefined, 'ed25519'],
      ['sm2-sm3', 'sm2'],
    ]);
    expect(checkEvidence(files)).toMatchObject({ ok: true, exitCode: 0, verified: 6, problems: [] });
    // The auditor's own copies of both published keys, recognised from the keys themselves.
    expect(checkEvidence(files, [signer.publicKeyPem(), smPublicPem]).exitCode).toBe(0);
    // Only the SM2 key: the Ed25519 stretch cannot be vouched for.
    expect(checkEvidence(files, [smPublicPem]).exitCode).toBe(1);
  });

  it('verifies an all-SM bundle and names the event a changed byte altered', () => {
    const files = bundle(chain(6, 0), ['sm', 'sm']);
    expect(checkEvidence(files)).toMatchObject({ ok: true, verified: 6 });
    const report = checkEvidence(edited(files, (l) => (l[1].details.seq = 98), smSigner));
    expect(report).toMatchObject({ ok: false, exitCode: 1, firstTampered: { seq: 2, id: '102' } });
  });

  it('refuses an SM2 checkpoint relabelled as Ed25519, and an SM3 digest recomputed with SHA-256', () => {
    const files = switched();
    const checkpoints = JSON.parse(files.get('checkpoints.json')!.toString());
    delete checkpoints[1].algorithm;
    const relabelled = new Map(files).set('checkpoints.json', Buffer.from(JSON.stringify(checkpoints)));
    expect(checkEvidence(relabelled).problems.map((p) => p.message)).toContain(
      'the checkpoint at seq 6 (signed at 2026-01-01T00:00:00.000Z) has an invalid signature',
    );
    const resha = edited(
      files,
      (lines) => {
        let d = lines[2].hash;
        for (const l of lines.slice(3))
          l.publicDigest = d = nextPublicDigest(
            d,
            l.prevHash,
            l.hash,
            publicCanonical({ ...l, occurredAt: new Date(l.occurredAt) }, l.seq),
          );
      },
      smSigner,
    );
    expect(checkEvidence(resha)).toMatchObject({ exitCode: 1, firstTampered: { seq: 4 } });
  });
});
