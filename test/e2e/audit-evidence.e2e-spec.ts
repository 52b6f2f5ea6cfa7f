import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CheckpointArchive, unzipFiles, zipFiles } from '@toolgate/audit';
import { openRawSql, startTestGateway, type RawSql, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// ADR 030: checkpoints leave the gateway as they are signed, and what left cannot be taken back
// from inside the database.
describe('audit evidence outside the gateway', () => {
  let gw: TestGateway;
  let sql: RawSql;
  let auditor: string;
  let agent: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    sql = await openRawSql(gw.db);
    auditor = await gw.createKey('auditor');
    agent = await gw.createKey('agent', 'acme');
  });
  afterAll(async () => {
    await sql?.close();
    await gw?.close();
  });

  const readLogs = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const res = await gw.api('POST', '/v1/agents/ops_assistant/tools/read_logs/invoke', {
        key: agent,
        body: { input: { service: 'search-api', limit: 3 } },
      });
      expect(res.body.status).toBe('ok');
    }
  };
  const verify = async () =>
    (await gw.api('GET', '/v1/audit/verify?tenantId=acme', { key: auditor })).body.data;
  const checkpointNow = async () => {
    const res = await gw.api('POST', '/v1/audit/checkpoints', { key: auditor, body: { tenantId: 'acme' } });
    expect(res.status).toBe(201);
    return res.body.data;
  };

  it('publishes the public key checkpoints are signed with', async () => {
    const res = await gw.api('GET', '/v1/audit/public-keys', { key: auditor });
    expect(res.status).toBe(200);
    const listed = (await gw.api('GET', '/v1/audit/checkpoints', { key: auditor })).body.data;
    expect(res.body.data.keys).toEqual([
      { keyId: listed.keyId, algorithm: 'Ed25519', publicKeyPem: listed.publicKeyPem },
    ]);
    expect((await gw.api('GET', '/v1/audit/public-keys', { key: agent })).status).toBe(403);
  });

  it('exports every checkpoint it signs, with the public digest of its stretch', async () => {
    await readLogs(3);
    const [first] = await checkpointNow();
    await readLogs(2);
    const [second] = await checkpointNow();
    expect(first).toMatchObject({ fromSeq: 0, fromHash: '0'.repeat(64) });
    expect(second).toMatchObject({ fromSeq: first.seq, fromHash: first.headHash });
    expect(second.publicDigest).toMatch(/^[0-9a-f]{64}$/);
    await gw.app.get(CheckpointArchive).flush();
    const dir = join(gw.settings.audit.archiveDir, 'checkpoints', 'acme');
    expect(readdirSync(dir).map((f) => Number(f.split('-')[0]))).toEqual([first.seq, second.seq]);
  });

  /**
   * The verifier as an auditor runs it: another process, no database, no secret. The first run
   * goes through `npx toolgate-verify` (the packaging); the others run the same bin with node,
   * which skips npx's own start-up on a loaded machine.
   */
  async function toolgateVerify(
    via: 'npx' | 'node',
    ...args: string[]
  ): Promise<{ code: number; report: any }> {
    const [command, first] =
      via === 'npx'
        ? ['npx', ['--no-install', 'toolgate-verify']]
        : [process.execPath, ['tools/toolgate-verify/bin.mjs']];
    try {
      const { stdout } = await promisify(execFile)(command, [...first, ...args, '--json'], {
        cwd: process.cwd(),
      });
      return { code: 0, report: JSON.parse(stdout) };
    } catch (err: any) {
      return { code: err.code, report: err.stdout ? JSON.parse(err.stdout) : err.stderr };
    }
  }

  async function evidence(query = 'tenantId=acme'): Promise<Buffer> {
    const res = await fetch(`${gw.url}/v1/audit/evidence?${query}`, {
      headers: { authorization: `Bearer ${auditor}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    return Buffer.from(await res.arrayBuffer());
  }

  it('answers an evidence zip that the offline verifier checks, and names the event a flipped byte changed', async () => {
    await readLogs(3);
    const zip = await evidence();
    const files = unzipFiles(zip);
    expect([...files.keys()].sort()).toEqual([
      'README.md',
      'checkpoints.json',
      'events.jsonl',
      'manifest.json',
      'manifest.sig',
      'public-keys.json',
    ]);
    const lines = files
      .get('events.jsonl')!
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const manifest = JSON.parse(files.get('manifest.json')!.toString());
    expect(manifest).toMatchObject({
      tenantId: 'acme',
      firstSeq: 1,
      lastSeq: lines.length,
      events: lines.length,
    });
    expect(Object.keys(lines[0])).toEqual(
      expect.arrayContaining([
        'id',
        'seq',
        'initiatorId',
        'bindingVersion',
        'definitionHash',
        'prevHash',
        'hash',
        'publicDigest',
      ]),
    );

    const dir = mkdtempSync(join(tmpdir(), 'toolgate-evidence-'));
    writeFileSync(join(dir, 'evidence.zip'), zip);
    const good = await toolgateVerify('npx', join(dir, 'evidence.zip'));
    expect(good.report).toMatchObject({
      problems: [],
      ok: true,
      events: lines.length,
      verified: lines.length,
    });
    expect(good.code).toBe(0);

    // One byte of one event changed — the file repacked, as someone editing the evidence would.
    const target = lines[4];
    const text = files.get('events.jsonl')!.toString();
    const line = text.indexOf(`"seq":${target.seq},`);
    const at = text.indexOf('"event":"', line) + '"event":"'.length + 1;
    const flipped = Buffer.from(text);
    flipped[at] = flipped[at]! ^ 0x01;
    const tampered = new Map(files).set('events.jsonl', flipped);
    writeFileSync(join(dir, 'tampered.zip'), zipFiles([...tampered].map(([name, data]) => ({ name, data }))));
    const bad = await toolgateVerify('node', join(dir, 'tampered.zip'));
    expect(bad.code).toBe(1);
    expect(bad.report.firstTampered).toEqual({ seq: target.seq, id: target.id });
    expect(JSON.stringify(bad.report.problems)).toContain(`event seq ${target.seq} (id ${target.id})`);

    // The same, unpacked into a directory.
    const unpacked = join(dir, 'unpacked');
    mkdirSync(unpacked);
    for (const [name, data] of tampered) writeFileSync(join(unpacked, name), data);
    expect((await toolgateVerify('node', unpacked)).report.firstTampered).toEqual({
      seq: target.seq,
      id: target.id,
    });

    // Checked against the published key only, a bundle re-signed with another key fails.
    const key = join(dir, 'published.pem');
    writeFileSync(
      key,
      (await gw.api('GET', '/v1/audit/public-keys', { key: auditor })).body.data.keys[0].publicKeyPem,
    );
    expect((await toolgateVerify('node', join(dir, 'evidence.zip'), '--public-key', key)).code).toBe(0);
    expect(readFileSync(join(dir, 'evidence.zip')).length).toBe(zip.length);
  }, 180_000);

  it('catches the newest events deleted with the chain head moved back and the checkpoint row deleted', async () => {
    await readLogs(2);
    const [newest] = await checkpointNow();
    await gw.app.get(CheckpointArchive).flush();
    expect((await verify()).ok).toBe(true);
    const keep = newest.seq - 3;
    const [kept] = await sql.query<{ hash: string }>(
      'SELECT hash FROM audit_events WHERE tenant_id = ? AND seq = ?',
      ['acme', keep],
    );
    await sql.query('DELETE FROM audit_events WHERE tenant_id = ? AND seq > ?', ['acme', keep]);
    await sql.query('UPDATE audit_chain_heads SET seq = ?, head_hash = ? WHERE tenant_id = ?', [
      keep,
      kept!.hash,
      'acme',
    ]);
    await sql.query('DELETE FROM audit_checkpoints WHERE tenant_id = ? AND seq > ?', ['acme', keep]);
    const v = await verify();
    expect(v.ok).toBe(false);
    expect(v.tenants[0].problem).toContain('newest events deleted');
    expect(v.tenants[0].problem).toContain('exported copy');
    expect(v.tenants[0].breaks).toHaveLength(1);

    // Incrementally (from the newest checkpoint, here the exported copy), as a background job, and
    // for a checkpoint: never "ok".
    const incremental = (
      await gw.api('GET', '/v1/audit/verify?tenantId=acme&mode=incremental', { key: auditor })
    ).body.data;
    expect(incremental).toMatchObject({ ok: false, tenants: [{ verifiedFromSeq: newest.seq }] });
    const refused = await gw.api('POST', '/v1/audit/checkpoints', {
      key: auditor,
      body: { tenantId: 'acme' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('AUDIT_CHAIN_BROKEN');
    const started = await gw.api('POST', '/v1/audit/verify-jobs', {
      key: auditor,
      body: { tenantId: 'acme' },
    });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ status: 'running', tenantId: 'acme', total: keep });
    let job = started.body.data;
    for (let i = 0; i < 100 && job.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (await gw.api('GET', `/v1/audit/verify-jobs/${job.id}`, { key: auditor })).body.data;
    }
    expect(job).toMatchObject({ status: 'done', checked: keep, result: { ok: false } });
    expect((await gw.api('GET', `/v1/audit/verify-jobs/${job.id}`, { key: agent })).status).toBe(403);
  });

  it('lists every break of a chain, each by seq and id', async () => {
    const events = (
      await gw.api('GET', '/v1/audit/events?tenantId=acme&limit=500', { key: auditor })
    ).body.data.items.reverse();
    const [a, b] = [events[1], events[3]];
    for (const e of [a, b])
      await sql.query('UPDATE audit_events SET tool = ? WHERE id = ?', ['edited', e.id]);
    const v = await verify();
    expect(v.tenants[0].breaks.slice(0, 2)).toEqual([
      { problem: expect.stringContaining(`event seq ${a.seq} (id ${a.id})`), eventId: a.id, seq: a.seq },
      { problem: expect.stringContaining(`event seq ${b.seq} (id ${b.id})`), eventId: b.id, seq: b.seq },
    ]);
    // The console's language: the same breaks in Chinese, events still named by seq and id.
    const zh = (
      await gw.api('GET', '/v1/audit/verify?tenantId=acme', {
        key: auditor,
        headers: { 'accept-language': 'zh-CN' },
      })
    ).body.data;
    expect(zh.tenants[0].breaks[0]).toMatchObject({
      eventId: a.id,
      problem: `事件（序号 ${a.seq}，ID ${a.id}）校验不通过：写入后被修改，或在没有链密钥的情况下被伪造`,
    });
  });
});
