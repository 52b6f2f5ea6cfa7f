import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARIADB_ADMIN, testDatabaseKind } from '../support/test-database.js';
import { openRawSql, type RawSql } from '../support/raw-sql.js';
import { startTestGateway, type TestGateway } from '../support/test-gateway.js';

/**
 * The 等保 profile's trail in the database itself (等保 2.0 8.1.4.3 c): with the profile on, no
 * account — the gateway's, a DBA's — can change or remove an event or a checkpoint; the gateway
 * keeps appending and verifying. On MariaDB the runtime account can also be one that holds only
 * INSERT and SELECT on the trail, with migrations run through another (DATABASE_MIGRATION_URL).
 */
describe('the compliance profile keeps the trail append-only in the database', () => {
  let gw: TestGateway;
  let sql: RawSql;
  let agentKey: string;
  // Under the profile the trail is the audit admin's to verify and checkpoint (ADR 039).
  let auditKey: string;

  const readLogs = (key: string, gateway: TestGateway = gw) =>
    gateway.api('POST', '/v1/agents/ops_assistant/tools/read_logs/invoke', {
      key,
      body: { input: { service: 'payment-api', limit: 2 } },
    });

  // One deployment: every gateway of it holds the same chain secret and signing key.
  const profile = {
    TOOLGATE_COMPLIANCE_PROFILE: 'dengbao3',
    TOOLGATE_AUDIT_SECRET: randomBytes(32).toString('hex'),
    TOOLGATE_AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
  };

  beforeAll(async () => {
    gw = await startTestGateway({ env: profile });
    sql = await openRawSql(gw.db);
    agentKey = await gw.createKey('agent', 'acme');
    auditKey = await gw.createKey('audit_admin');
  });
  afterAll(async () => {
    await sql?.close();
    await gw?.close();
  });

  it('appends, checkpoints and verifies as before, and refuses every UPDATE and DELETE of the trail', async () => {
    expect((await readLogs(agentKey)).body.status).toBe('ok');
    expect(
      (await gw.api('POST', '/v1/audit/checkpoints', { key: auditKey, body: { tenantId: 'acme' } })).status,
    ).toBe(201);
    expect((await gw.api('GET', '/v1/audit/verify?tenantId=acme', { key: auditKey })).body.data.ok).toBe(
      true,
    );

    const [event] = await sql.query<{ id: unknown }>(
      "SELECT id FROM audit_events WHERE tenant_id = 'acme' AND tool = 'read_logs' LIMIT 1",
    );
    await expect(
      sql.query("UPDATE audit_events SET code = 'FORGED' WHERE tenant_id = 'acme'"),
    ).rejects.toThrow(/append-only/);
    await expect(sql.query('DELETE FROM audit_events WHERE id = ?', [event!.id])).rejects.toThrow(
      /append-only/,
    );
    await expect(sql.query('DELETE FROM audit_checkpoints')).rejects.toThrow(/append-only/);
    await expect(sql.query("UPDATE audit_checkpoints SET signature = 'x'")).rejects.toThrow(/append-only/);
    expect((await gw.api('GET', '/v1/audit/verify?tenantId=acme', { key: auditKey })).body.data.ok).toBe(
      true,
    );
  });

  describe.skipIf(testDatabaseKind() !== 'mariadb')(
    'a runtime account without rights to change the trail',
    () => {
      const user = `tg_rt_${randomBytes(4).toString('hex')}`;
      const password = randomBytes(12).toString('hex');
      let runtime: TestGateway;

      beforeAll(async () => {
        const database = new URL(gw.db.url).pathname.slice(1);
        const admin = await createConnection(MARIADB_ADMIN);
        try {
          await admin.query('CREATE USER ?@? IDENTIFIED BY ?', [user, '%', password]);
          const [tables] = (await admin.query(
            'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?',
            [database],
          )) as unknown as [{ name: string }[]];
          for (const { name } of tables) {
            const rights = ['audit_events', 'audit_checkpoints'].includes(name)
              ? 'SELECT, INSERT'
              : 'SELECT, INSERT, UPDATE, DELETE';
            await admin.query(`GRANT ${rights} ON \`${database}\`.\`${name}\` TO ?@?`, [user, '%']);
          }
        } finally {
          await admin.end();
        }
        runtime = await startTestGateway({
          db: {
            ...gw.db,
            url: `mysql://${user}:${password}@127.0.0.1:3306/${database}`,
            drop: async () => {},
          },
          env: { ...profile, DATABASE_MIGRATION_URL: gw.db.url },
        });
      });
      afterAll(async () => {
        await runtime?.close();
        const admin = await createConnection(MARIADB_ADMIN);
        await admin.query('DROP USER IF EXISTS ?@?', [user, '%']);
        await admin.end();
      });

      it('serves audited calls, and the database refuses its UPDATE of an event by grant', async () => {
        expect((await readLogs(agentKey, runtime)).body.status).toBe('ok');
        expect(
          (await runtime.api('GET', '/v1/audit/verify?tenantId=acme', { key: auditKey })).body.data.ok,
        ).toBe(true);
        const conn = await createConnection({
          ...MARIADB_ADMIN,
          user,
          password,
          database: new URL(gw.db.url).pathname.slice(1),
        });
        try {
          await expect(conn.query("UPDATE audit_events SET code = 'FORGED'")).rejects.toMatchObject({
            code: 'ER_TABLEACCESS_DENIED_ERROR',
          });
          await expect(conn.query('DELETE FROM audit_checkpoints')).rejects.toMatchObject({
            code: 'ER_TABLEACCESS_DENIED_ERROR',
          });
        } finally {
          await conn.end();
        }
      });
    },
  );
});
