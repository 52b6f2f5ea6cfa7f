import { generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  callApi,
  createTestDatabase,
  openRawSql,
  startGatewayProcess,
  testDatabaseKind,
  waitFor,
  type GatewayProcess,
  type RawSql,
  type TestDatabase,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ADMIN = 'tg_crash-test-admin-key-0123456789';
const CONCURRENCY = 64;

// A gateway process killed with SIGKILL while its writer has batches in flight (ADR 017): a batch
// is one transaction, so the database keeps all of it or none, and the restarted gateway closes the
// calls it had open as interrupted. Two processes and a network connection to cut: MariaDB only.
describe.skipIf(testDatabaseKind() !== 'mariadb')('audit when a gateway is killed mid-batch', () => {
  let db: TestDatabase;
  let sql: RawSql;
  let env: Record<string, string>;
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('mariadb');
    env = {
      DATABASE_URL: db.url,
      TOOLGATE_DEMO: 'on',
      TOOLGATE_ADMIN_KEY: ADMIN,
      TOOLGATE_INSTANCE_ID: 'crash-test',
      TOOLGATE_AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      TOOLGATE_AUDIT_SECRET: randomBytes(32).toString('hex'),
    };
    gateway = await startGatewayProcess(env);
    sql = await openRawSql(db);
  }, 120_000);
  afterAll(async () => {
    await gateway?.stop();
    await sql?.close();
    await db?.drop();
  });

  const count = async (where: string) =>
    Number((await sql.query<{ n: string }>(`SELECT COUNT(*) AS n FROM audit_events WHERE ${where}`))[0]!.n);

  it('after a restart every started call is closed (finished or interrupted) and the chain verifies', async () => {
    const agentKey: string = (
      await callApi(gateway!.url, 'POST', '/v1/admin/keys', {
        key: ADMIN,
        body: { name: 'crash', role: 'agent', tenantId: 'acme' },
      })
    ).body.data.key;
    const url = `${gateway!.url}/v1/agents/ops_assistant/tools/read_logs/invoke`;
    let running = true;
    let answered = 0;
    const clients = Array.from({ length: CONCURRENCY }, async () => {
      while (running) {
        const ok = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${agentKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ input: { service: 'payment-api', limit: 5 } }),
        }).then(
          (r) => r.ok,
          () => false,
        );
        if (!ok) return; // the gateway is gone
        answered++;
      }
    });
    // Killed while 64 clients keep its writer busy: batches are being built, sent and committed.
    await waitFor(() => answered >= 500, { timeoutMs: 60_000, what: '500 audited calls' });
    await gateway!.stop('SIGKILL');
    running = false;
    await Promise.all(clients);
    const started = await count(`event = 'started'`);
    const closedBeforeRestart = await count(`event IN ('finished','not_executed','interrupted')`);
    expect(started).toBeGreaterThanOrEqual(answered);

    gateway = await startGatewayProcess(env);
    // The reconciler closes, at boot, the calls this instance id opened before it.
    await waitFor(
      async () =>
        Number((await sql.query<{ n: string }>('SELECT COUNT(*) AS n FROM audit_open_calls'))[0]!.n) === 0,
      { timeoutMs: 30_000, intervalMs: 200, what: 'the open calls of the killed run to be closed' },
    );
    const unclosed = await sql.query(
      `SELECT s.call_id FROM audit_events s
       LEFT JOIN audit_events c ON c.tenant_id = s.tenant_id AND c.call_id = s.call_id
         AND c.event IN ('finished','not_executed','interrupted')
       WHERE s.event = 'started' AND c.id IS NULL`,
    );
    expect(unclosed).toEqual([]);
    const duplicates = await sql.query(
      `SELECT call_id, COUNT(*) AS n FROM audit_events
       WHERE event IN ('finished','not_executed','interrupted')
       GROUP BY tenant_id, call_id HAVING COUNT(*) > 1`,
    );
    expect(duplicates).toEqual([]);
    const interrupted = await count(`event = 'interrupted'`);
    expect(interrupted).toBe(started - closedBeforeRestart);
    console.log(
      `killed after ${answered} answered calls: ${started} started, ${interrupted} closed as interrupted on restart`,
    );

    // The restarted gateway appends to the chain the dead one left, and it all verifies.
    const after = await callApi(gateway.url, 'POST', '/v1/agents/ops_assistant/tools/read_logs/invoke', {
      key: agentKey,
      body: { input: { service: 'payment-api', limit: 1 } },
    });
    expect(after.body.status).toBe('ok');
    // Counted first: a verification is itself an event (`chain_verified`, ADR 039), after what it checked.
    const total = await count('1 = 1');
    const verify = await callApi(gateway.url, 'GET', '/v1/audit/verify', { key: ADMIN });
    expect(verify.body.data, JSON.stringify(verify.body.data)).toMatchObject({ ok: true });
    expect(verify.body.data.checked).toBe(total);
  }, 180_000);
});
