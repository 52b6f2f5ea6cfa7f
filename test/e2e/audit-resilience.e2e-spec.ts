import {
  createTestDatabase,
  makeConfigDir,
  startTestGateway,
  TcpProxy,
  testDatabaseKind,
  waitFor,
  type TestDatabase,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions, INITECH_YAML, recordedNotes, TestToolsModule } from './test-tools.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A cut connection needs a database across a network: this suite runs on the MariaDB project only.
// Embedded SQLite lives in the gateway's own process; there is no connection to cut.
describe.skipIf(testDatabaseKind() !== 'mariadb')(
  'audit when the database connection is cut (MariaDB through a TCP proxy)',
  () => {
    let db: TestDatabase;
    let proxy: TcpProxy;
    let gw: TestGateway;
    let agent: string;
    let auditor: string;

    beforeAll(async () => {
      db = await createTestDatabase('mariadb');
      proxy = await new TcpProxy('127.0.0.1', 3306).start();
      const viaProxy = db.url.replace('127.0.0.1:3306', `127.0.0.1:${proxy.port}`);
      gw = await startTestGateway({
        db: { ...db, url: viaProxy },
        env: { TOOLGATE_CONFIG_DIR: makeConfigDir({ initech: INITECH_YAML }) },
        imports: [TestToolsModule],
      });
      agent = await gw.createKey('agent', 'initech');
      auditor = await gw.createKey('auditor');
    });
    afterAll(async () => {
      await gw?.close();
      await proxy?.stop();
      await db?.drop();
    });

    const invoke = (tool: string, input: unknown) =>
      gw.api('POST', `/v1/agents/audit_tests/tools/${tool}/invoke`, { key: agent, body: { input } });

    it('refuses L1 calls without running them, keeps L0 calls going, and recovers by itself', async () => {
      expect((await invoke('record_note', { note: 'before' })).body.status).toBe('ok');
      // A load running through the cut.
      const ranAtStart = executions.recordNote;
      const load = Promise.all(
        Array.from({ length: 150 }, async (_, i) => {
          await sleep(i * 4); // pacing: the load spreads over ~600 ms, so the cut falls inside it
          return invoke('record_note', { note: `during ${i}`, fail: i % 25 === 0 });
        }),
      );
      await waitFor(() => executions.recordNote >= ranAtStart + 10, { what: 'the load to be running' });
      proxy.cut();
      // Calls already past their audited start may still finish now; this one must never run.
      const refused = await invoke('record_note', { note: 'while cut' });
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ code: 'AUDIT_UNAVAILABLE' });
      expect(recordedNotes.has('while cut')).toBe(false);
      // Past the key cache's TTL a key cannot be checked: refused as NOT_READY (503), never served
      // from a stale entry — a key revoked meanwhile must not keep working (ADR 004).
      await sleep(2_500);
      const l0 = await invoke('noop', {});
      expect(l0.status).toBe(503);
      expect(l0.body.code).toBe('NOT_READY');
      expect((await invoke('record_note', { note: 'still cut' })).status).toBe(503);
      proxy.restore();

      const results = await load;
      await waitFor(async () => (await invoke('record_note', { note: 'after' })).body.status === 'ok', {
        timeoutMs: 10_000,
        intervalMs: 250,
        what: 'L1 calls to be audited again once the database is back',
      });
      const executedInLoad = results.filter((r) => r.status === 200).length;
      const refusedInLoad = results.filter((r) => r.status === 503).length;
      expect(executedInLoad + refusedInLoad).toBe(150);
      expect(refusedInLoad).toBeGreaterThan(0);

      // Every started event ends with exactly one closing event; nothing stays open.
      await waitFor(
        async () => (await gw.api('GET', '/v1/audit/incomplete', { key: auditor })).body.data.length === 0,
        { timeoutMs: 10_000, intervalMs: 250, what: 'no started event left without its closing one' },
      );
      const verify = await gw.api('GET', '/v1/audit/verify', { key: auditor });
      expect(verify.body.data).toMatchObject({ ok: true });
      const finished = await gw.api('GET', '/v1/audit/events?tenantId=initech&event=finished&limit=500', {
        key: auditor,
      });
      const started = await gw.api('GET', '/v1/audit/events?tenantId=initech&event=started&limit=500', {
        key: auditor,
      });
      const closing = new Set(finished.body.data.items.map((e: any) => e.callId));
      const notExecuted = await gw.api(
        'GET',
        '/v1/audit/events?tenantId=initech&event=not_executed&limit=500',
        { key: auditor },
      );
      for (const e of notExecuted.body.data.items) closing.add(e.callId);
      for (const s of started.body.data.items) expect(closing.has(s.callId)).toBe(true);
    }, 60_000);
  },
);
