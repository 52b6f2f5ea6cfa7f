import {
  createTestDatabase,
  openRawSql,
  startTestGateway,
  TcpProxy,
  testDatabaseKind,
  waitFor,
  type RawSql,
  type TestDatabase,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A slow or unreachable database needs one across a connection: a table lock held by another
// session, or a TCP proxy that is cut. Embedded SQLite answers inside the gateway's own process
// (WAL readers are never blocked), so this suite runs on the MariaDB project only.
describe.skipIf(testDatabaseKind() !== 'mariadb')(
  'a key revoked in the database stops working within keyCacheTtlMs, even while the database is slow',
  () => {
    let db: TestDatabase;
    let proxy: TcpProxy;
    let gw: TestGateway;
    let sql: RawSql;
    let ttlMs: number;

    beforeAll(async () => {
      db = await createTestDatabase('mariadb');
      proxy = await new TcpProxy('127.0.0.1', 3306).start();
      gw = await startTestGateway({
        db: { ...db, url: db.url.replace('127.0.0.1:3306', `127.0.0.1:${proxy.port}`) },
      });
      // Behind the gateway's back and around the proxy: as another gateway revoking the key would.
      sql = await openRawSql(db);
      ttlMs = gw.settings.auth.keyCacheTtlMs;
    });
    afterAll(async () => {
      await sql?.query('UNLOCK TABLES').catch(() => undefined);
      await sql?.close();
      await gw?.close();
      await proxy?.stop();
      await db?.drop();
    });

    /** A fresh agent key of acme, used once so that this gateway has it cached. */
    async function cachedAgentKey(): Promise<{ id: string; key: string; cachedAt: number }> {
      const created = await gw.api('POST', '/v1/admin/keys', {
        body: { name: 'cache test', role: 'agent', tenantId: 'acme' },
      });
      const { id, key } = created.body.data;
      expect((await agents(key)).status).toBe(200);
      return { id, key, cachedAt: Date.now() };
    }
    const agents = (key: string) => gw.api('GET', '/v1/agents', { key });
    const revokeBehindTheGatewaysBack = (id: string) =>
      sql.query('UPDATE api_keys SET revoked_at = NOW(3) WHERE id = ?', [id]);

    it('refuses the key with 503 NOT_READY, never 200, when the database is slower than the bound', async () => {
      const { id, key, cachedAt } = await cachedAgentKey();
      await revokeBehindTheGatewaysBack(id);
      // Every read of api_keys now waits for this session's lock: a database that does not answer.
      await sql.query('LOCK TABLES api_keys WRITE');
      try {
        // Within the TTL the cached key is still trusted; that is what keyCacheTtlMs allows.
        expect((await agents(key)).status).toBe(200);
        // Time must pass here: the cache entry's TTL runs out (no condition to poll without a request).
        await sleep(cachedAt + ttlMs + 50 - Date.now());
        const t = Date.now();
        const [first, second] = await Promise.all([agents(key), agents(key)]);
        const waitedMs = Date.now() - t;
        for (const res of [first, second]) {
          expect(res.status).toBe(503);
          expect(res.body).toMatchObject({ code: 'NOT_READY' });
          expect(res.body.error).toContain('the credential store is unavailable');
        }
        // It waited for the database up to the bound (2 s), not for ever.
        expect(waitedMs).toBeGreaterThanOrEqual(1_900);
        expect(waitedMs).toBeLessThan(5_000);
      } finally {
        await sql.query('UNLOCK TABLES');
      }
      const afterwards = await agents(key);
      expect(afterwards.status).toBe(401);
      expect(afterwards.body).toMatchObject({ code: 'UNAUTHENTICATED' });
    });

    it('refuses the key with 503 NOT_READY when the database is unreachable, and 401 once it is back', async () => {
      const { id, key, cachedAt } = await cachedAgentKey();
      await revokeBehindTheGatewaysBack(id);
      proxy.cut();
      try {
        // Time must pass here: the cache entry's TTL runs out.
        await sleep(cachedAt + ttlMs + 50 - Date.now());
        const t = Date.now();
        const res = await agents(key);
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ code: 'NOT_READY' });
        expect(Date.now() - t).toBeLessThan(5_000);
      } finally {
        proxy.restore();
      }
      // The pool reconnects on its own; until it has, the key is refused with 503, never accepted.
      const seen: number[] = [];
      await waitFor(async () => seen.push((await agents(key)).status) && seen.at(-1) === 401, {
        timeoutMs: 10_000,
        intervalMs: 250,
        what: 'the pool to reconnect and the revoked key to be refused with 401',
      });
      expect(seen.filter((s) => s !== 401 && s !== 503)).toEqual([]);
    });
  },
);
