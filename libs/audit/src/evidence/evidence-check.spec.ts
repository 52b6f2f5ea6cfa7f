import { generateKeyPairSync } from 'node:crypto';
import { sha256Hex } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../audit-event.js';
import { draftEvent, type AuditEventRecord } from '../audit-fields.js';
import { CheckpointSigner } from '../chain/checkpoint-signer.js';
import { deriveChainKey, eventHash, publicCanonical } from '../chain/event-hash.js';
import { nextPublicDigest } from '../chain/public-digest.js';
import { checkEvidence } from './evidence-check.js';
import { EVIDENCE_KIND, evidenceLine } from './evidence-format.js';
import { unzipFiles, zipFiles } from './zip.js';

const KEY = deriveChainKey('secret');
const signer = new CheckpointSigner(
  generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
);

function chain(n: number): AuditEventRecord[] {
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
    const hash = eventHash(KEY, prev, d, seq);
    out.push({ ...d, id: String(100 + seq), seq, prevHash: prev, hash });
    prev = hash;
  }
  return out;
}

/** A bundle as the gateway builds it: two checkpoints, stretches (0, 3] and (3, 6]. */
function bundle(events = chain(6)): Map<string, Buffer> {
  const lines: string[] = [];
  const checkpoints = [];
  for (const [from, to] of [
    [0, 3],
    [3, 6],
  ] as const) {
    const fromHash = from ? events[from - 1]!.hash : GENESIS_HASH;
    let d = fromHash;
    for (const e of events.slice(from, to)) {
      d = nextPublicDigest(d, e.prevHash, e.hash, publicCanonical(e, e.seq));
      lines.push(evidenceLine(e, d));
    }
    const statement = {
      tenantId: 'acme',
      seq: to,
      headHash: events[to - 1]!.hash,
      signedAt: '2026-01-01T00:00:00.000Z',
      fromSeq: from,
      fromHash,
      publicDigest: d,
    };
    checkpoints.push({ ...statement, keyId: signer.keyId, signature: signer.sign(statement) });
  }
  const files = new Map<string, Buffer>([
    ['events.jsonl', Buffer.from(`${lines.join('\n')}\n`)],
    ['checkpoints.json', Buffer.from(JSON.stringify(checkpoints))],
    [
      'public-keys.json',
      Buffer.from(
        JSON.stringify({
          keys: [{ keyId: signer.keyId, algorithm: 'Ed25519', publicKeyPem: signer.publicKeyPem() }],
        }),
      ),
    ],
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
      keyId: signer.keyId,
      files: [...files].map(([name, body]) => ({ name, bytes: body.length, sha256: sha256Hex(body) })),
    }),
  );
  files.set('manifest.json', manifest);
  files.set('manifest.sig', Buffer.from(signer.signDocument(manifest)));
  return files;
}

/** The bundle with one event line replaced, and the manifest re-hashed and re-signed. */
function edited(files: Map<string, Buffer>, edit: (lines: any[]) => void): Map<string, Buffer> {
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
    .set('manifest.sig', Buffer.from(signer.signDocument(m)));
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
