import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventHash, smEventHash, unzipFiles, zipFiles } from '@toolgate/audit';
import {
  createTestDatabase,
  draftFromApiEvent,
  openRawSql,
  startTestGateway,
  type TestDatabase,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// ADR 040: `audit.cryptoSuite: sm` — HMAC-SM3 links, SM2 checkpoints over an SM3 public digest —
// on a chain first written under `standard`, then switched back: every event and checkpoint keeps
// its own algorithm, the gateway and the offline verifier check both side by side.
describe('audit trail under the national-standard suite (SM2 / SM3)', () => {
  let db: TestDatabase;
  let gw: TestGateway | undefined;
  let auditor: string;
  let agent: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-sm-data-'));
  const work = mkdtempSync(join(tmpdir(), 'toolgate-sm-evidence-'));

  /** A gateway on the one database and data directory (keys, audit secret), under `suite`. */
  async function restartWith(suite: 'standard' | 'sm'): Promise<TestGateway> {
    await gw?.close();
    gw = await startTestGateway({
      db,
      env: { TOOLGATE_DATA_DIR: dataDir, TOOLGATE_AUDIT_CRYPTO_SUITE: suite },
    });
    return gw;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    await restartWith('standard');
    auditor = await gw!.createKey('auditor');
    agent = await gw!.createKey('agent', 'acme');
  });
  afterAll(async () => {
    await gw?.close();
    await db?.drop();
  });

  const readLogs = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const res = await gw!.api('POST', '/v1/agents/ops_assistant/tools/read_logs/invoke', {
        key: agent,
        body: { input: { service: 'search-api', limit: 3 } },
      });
      expect(res.body.status).toBe('ok');
    }
  };
  const checkpointNow = async () => {
    const res = await gw!.api('POST', '/v1/audit/checkpoints', { key: auditor, body: { tenantId: 'acme' } });
    expect(res.status).toBe(201);
    return res.body.data[0];
  };
  const events = async (): Promise<any[]> =>
    (
      await gw!.api('GET', '/v1/audit/events?tenantId=acme&limit=500', { key: auditor })
    ).body.data.items.reverse();
  const verify = async (mode = '') =>
    (await gw!.api('GET', `/v1/audit/verify?tenantId=acme${mode}`, { key: auditor })).body.data;

  async function toolgateVerify(...args: string[]): Promise<{ code: number; report: any }> {
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['tools/toolgate-verify/bin.mjs', ...args, '--json'],
        { cwd: process.cwd() },
      );
      return { code: 0, report: JSON.parse(stdout) };
    } catch (err: any) {
      return { code: err.code, report: err.stdout ? JSON.parse(err.stdout) : err.stderr };
    }
  }

  let standardCheckpoint: any;
  let smCheckpoint: any;

  it('switches a chain from HMAC-SHA256 / Ed25519 to HMAC-SM3 / SM2, each event and checkpoint with its algorithm', async () => {
    await readLogs(2);
    standardCheckpoint = await checkpointNow();
    expect(standardCheckpoint.keyId).toMatch(/^ed25519:/);
    expect(standardCheckpoint.algorithm).toBeUndefined();

    await restartWith('sm');
    const before = (await events()).length;
    await readLogs(2);
    smCheckpoint = await checkpointNow();
    expect(smCheckpoint).toMatchObject({
      algorithm: 'sm2-sm3',
      keyId: expect.stringMatching(/^sm2:[0-9a-f]{16}$/),
      fromSeq: standardCheckpoint.seq,
      fromHash: standardCheckpoint.headHash,
      publicDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    // The links are what each suite writes: HMAC-SHA256 before the switch, HMAC-SM3 after.
    const all = await events();
    const { chainKey, smChainKey } = gw!.settings.audit;
    for (const e of all) {
      const d = draftFromApiEvent(e);
      const expected =
        e.seq > before
          ? smEventHash(smChainKey, e.prevHash, d, e.seq)
          : eventHash(chainKey, e.prevHash, d, e.seq);
      expect(e.hash, `event seq ${e.seq}`).toBe(expected);
    }
    expect(all.length).toBeGreaterThan(before);

    expect(await verify()).toMatchObject({ ok: true, checked: all.length });
    expect(await verify('&mode=incremental')).toMatchObject({ ok: true });
  });

  it('publishes both keys, and lists the stored checkpoints with their algorithm', async () => {
    const keys = (await gw!.api('GET', '/v1/audit/public-keys', { key: auditor })).body.data.keys;
    expect(keys.map((k: any) => [k.algorithm, k.keyId])).toEqual([
      ['Ed25519', standardCheckpoint.keyId],
      ['SM2', smCheckpoint.keyId],
    ]);
    const listed = (await gw!.api('GET', '/v1/audit/checkpoints?tenantId=acme', { key: auditor })).body.data;
    expect(listed.keyId).toBe(smCheckpoint.keyId);
    expect(listed.checkpoints.map((c: any) => c.algorithm ?? null)).toEqual([null, 'sm2-sm3']);
  });

  it('answers evidence the offline verifier checks across the switch, and a changed byte in the SM stretch fails', async () => {
    const res = await fetch(`${gw!.url}/v1/audit/evidence?tenantId=acme`, {
      headers: { authorization: `Bearer ${auditor}` },
    });
    expect(res.status).toBe(200);
    const zip = Buffer.from(await res.arrayBuffer());
    writeFileSync(join(work, 'evidence.zip'), zip);
    const good = await toolgateVerify(join(work, 'evidence.zip'));
    expect(good.report).toMatchObject({ ok: true, problems: [] });
    expect(good.report.verified).toBe(good.report.events);
    expect(good.code).toBe(0);

    // Against the published keys (both needed: one stretch each), then the Ed25519 one alone.
    const keys = (await gw!.api('GET', '/v1/audit/public-keys', { key: auditor })).body.data.keys;
    const pems = keys.map((k: any, i: number) => {
      const file = join(work, `key-${i}.pem`);
      writeFileSync(file, k.publicKeyPem);
      return file;
    });
    const both = await toolgateVerify(
      join(work, 'evidence.zip'),
      '--public-key',
      pems[0],
      '--public-key',
      pems[1],
    );
    expect(both.code).toBe(0);
    expect((await toolgateVerify(join(work, 'evidence.zip'), '--public-key', pems[0])).code).toBe(1);

    // One byte of an event of the SM2-signed stretch.
    const files = unzipFiles(zip);
    const text = files.get('events.jsonl')!.toString();
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const index = lines.findIndex((l) => l.seq === smCheckpoint.seq - 1);
    const target = lines[index];
    const lineStart = text.split('\n').slice(0, index).join('\n').length + (index ? 1 : 0);
    const at = text.indexOf('"event":"', lineStart) + '"event":"'.length + 1;
    // Flipped in the text, not the bytes: events before it may hold multi-byte characters.
    const flipped = Buffer.from(
      text.slice(0, at) + String.fromCharCode(text.charCodeAt(at) ^ 0x01) + text.slice(at + 1),
    );
    writeFileSync(
      join(work, 'tampered.zip'),
      zipFiles([...new Map(files).set('events.jsonl', flipped)].map(([name, data]) => ({ name, data }))),
    );
    const bad = await toolgateVerify(join(work, 'tampered.zip'));
    expect(bad.code).toBe(1);
    expect(bad.report.firstTampered).toEqual({ seq: target.seq, id: target.id });
  }, 120_000);

  it('switches back to standard: older SM2 checkpoints still verify beside new Ed25519 ones', async () => {
    await restartWith('standard');
    await readLogs(1);
    const back = await checkpointNow();
    expect(back).toMatchObject({ keyId: standardCheckpoint.keyId, fromSeq: smCheckpoint.seq });
    expect(back.algorithm).toBeUndefined();
    expect(await verify()).toMatchObject({ ok: true });
    const keys = (await gw!.api('GET', '/v1/audit/public-keys', { key: auditor })).body.data.keys;
    expect(keys.map((k: any) => k.algorithm)).toEqual(['Ed25519', 'SM2']);
  });

  it('catches an edited event linked with HMAC-SM3', async () => {
    const sql = await openRawSql(db);
    try {
      const all = await events();
      const target = all.find((e) => e.seq === smCheckpoint.seq - 1);
      await sql.query('UPDATE audit_events SET tool = ? WHERE id = ?', ['edited', target.id]);
      const v = await verify();
      expect(v).toMatchObject({ ok: false, firstBrokenEventId: target.id });
    } finally {
      await sql.close();
    }
  });
});
