import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointArchive } from '@toolgate/audit';
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
  });
});
