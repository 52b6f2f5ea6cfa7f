import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { toSqlDateTime } from '@toolgate/database';
import { openRawSql, startTestGateway, type RawSql, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@toolgate/testing';

// ADR 046: verify jobs live in the database, so any gateway answers them, a job whose gateway
// died is seen as such, and a finished job stays readable for a while.
describe('verify jobs shared by the gateways of one database', () => {
  let db: TestDatabase;
  let a: TestGateway;
  let b: TestGateway;
  let sql: RawSql;
  let auditor: string;
  let tenantAuditor: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = {
      TOOLGATE_AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      TOOLGATE_AUDIT_SECRET: randomBytes(16).toString('hex'),
    };
    a = await startTestGateway({ db, env: { ...env, TOOLGATE_INSTANCE_ID: 'gw-a' } });
    b = await startTestGateway({ db, env: { ...env, TOOLGATE_INSTANCE_ID: 'gw-b' } });
    sql = await openRawSql(db);
    auditor = await a.createKey('auditor');
    tenantAuditor = await a.createKey('auditor', 'acme');
    const agent = await a.createKey('agent', 'acme');
    for (let i = 0; i < 5; i++)
      await a.api('POST', '/v1/agents/ops_assistant/tools/read_logs/invoke', {
        key: agent,
        body: { input: { service: 'search-api', limit: 3 } },
      });
  }, 120_000);
  afterAll(async () => {
    await sql?.close();
    await b?.close();
    await a?.close();
    await db?.drop();
  });

  const poll = async (gw: TestGateway, id: string, key = auditor) => {
    let job = (await gw.api('GET', `/v1/audit/verify-jobs/${id}`, { key })).body.data;
    for (let i = 0; i < 200 && job.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = (await gw.api('GET', `/v1/audit/verify-jobs/${id}`, { key })).body.data;
    }
    return job;
  };

  it('answers a job started on one gateway from the other, running and done, with its result', async () => {
    const started = await a.api('POST', '/v1/audit/verify-jobs', {
      key: auditor,
      body: { tenantId: 'acme' },
    });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ status: 'running', tenantId: 'acme', instanceId: 'gw-a' });
    const onB = await b.api('GET', `/v1/audit/verify-jobs/${started.body.data.id}`, { key: auditor });
    expect(onB.status).toBe(200);
    expect(onB.body.data).toMatchObject({ id: started.body.data.id, instanceId: 'gw-a' });
    const done = await poll(b, started.body.data.id);
    expect(done).toMatchObject({ status: 'done', result: { ok: true }, finishedAt: expect.any(String) });
    expect(done.checked).toBe(done.total);
    // Still there, from both, once finished; still scoped: another tenant's reader gets 404.
    expect((await a.api('GET', `/v1/audit/verify-jobs/${done.id}`, { key: auditor })).body.data).toEqual(
      done,
    );
    const other = await a.createKey('auditor', 'globex');
    expect((await b.api('GET', `/v1/audit/verify-jobs/${done.id}`, { key: other })).status).toBe(404);
    expect((await b.api('GET', `/v1/audit/verify-jobs/${randomUUID()}`, { key: auditor })).status).toBe(404);
  });

  it('answers a running job whose gateway died, or restarted, as failed, and keeps it so', async () => {
    const orphan = async (instanceId: string, bootId: string) => {
      const id = randomUUID();
      const now = toSqlDateTime(new Date());
      await sql.query(
        `INSERT INTO audit_verify_jobs (id, status, tenant_id, scope, instance_id, boot_id, started_at, updated_at, checked, total)
         VALUES (?, 'running', 'acme', 'acme', ?, ?, ?, ?, 3, 10)`,
        [id, instanceId, bootId, now, now],
      );
      return id;
    };
    // A gateway that is gone (no heartbeat), and gw-b itself in an earlier boot.
    for (const id of [await orphan('gw-gone', 'boot-1'), await orphan('gw-b', 'an-earlier-boot')]) {
      const seen = (await b.api('GET', `/v1/audit/verify-jobs/${id}`, { key: tenantAuditor })).body.data;
      expect(seen).toMatchObject({ status: 'failed', checked: 3, error: expect.stringContaining('stopped') });
      const [row] = await sql.query<{ status: string }>('SELECT status FROM audit_verify_jobs WHERE id = ?', [
        id,
      ]);
      expect(row!.status).toBe('failed');
    }
  });

  it('forgets finished jobs after a week, when another one starts', async () => {
    const old = (await a.api('POST', '/v1/audit/verify-jobs', { key: auditor, body: { tenantId: 'acme' } }))
      .body.data;
    expect((await poll(a, old.id)).status).toBe('done');
    await sql.query('UPDATE audit_verify_jobs SET finished_at = ? WHERE id = ?', [
      toSqlDateTime(new Date(Date.now() - 8 * 24 * 3600_000)),
      old.id,
    ]);
    const next = (await b.api('POST', '/v1/audit/verify-jobs', { key: auditor, body: { tenantId: 'acme' } }))
      .body.data;
    expect((await poll(b, next.id)).status).toBe('done');
    expect((await a.api('GET', `/v1/audit/verify-jobs/${old.id}`, { key: auditor })).status).toBe(404);
  });
});
