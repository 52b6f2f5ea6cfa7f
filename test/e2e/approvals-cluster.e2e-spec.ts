import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { OpsSimulator } from '@toolgate/tool-packs/testing';
import {
  callApi,
  createTestDatabase,
  makeConfigDir,
  startGatewayProcess,
  testDatabaseKind,
  waitFor,
  waitForMinuteRoom,
  type GatewayProcess,
  type TestDatabase,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ADMIN = 'tg_cluster-test-admin-key-012345';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const UMBRELLA_YAML = `
id: umbrella
name: Umbrella
connectors:
  ops_api:
    baseUrl: \${TOOLGATE_T_UMBRELLA__OPS_URL}
    token: demo-ops-token
agentTypes:
  ops_assistant:
    tools:
      - get_service_status
      - read_logs
      - restart_service
quotas:
  - scope: tenant
    tool: get_service_status
    perMinute: 10
`;

// Several gateway processes on one database is the production topology; SQLite is embedded and
// single-process by design, so this suite runs on the MariaDB project (with Redis for quotas).
describe.skipIf(testDatabaseKind() !== 'mariadb')(
  'approvals and idempotency across two gateway processes',
  () => {
    let db: TestDatabase;
    let ops: OpsSimulator;
    let env: Record<string, string>;
    let a: GatewayProcess;
    let b: GatewayProcess;
    let agent: string;
    let approver: string;

    const api = (
      gw: GatewayProcess,
      method: string,
      path: string,
      key: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => callApi(gw.url, method, path, { key, body, headers });
    const invoke = (
      gw: GatewayProcess,
      tool: string,
      input: unknown,
      extra: { sessionId?: string; key?: string } = {},
    ) =>
      api(
        gw,
        'POST',
        `/v1/agents/ops_assistant/tools/${tool}/invoke`,
        agent,
        { input, ...(extra.sessionId ? { sessionId: extra.sessionId } : {}) },
        extra.key ? { 'idempotency-key': extra.key } : {},
      );
    const createKey = async (role: string) =>
      (await api(a, 'POST', '/v1/admin/keys', ADMIN, { name: role, role, tenantId: 'umbrella' })).body.data
        .key as string;

    beforeAll(async () => {
      db = await createTestDatabase('mariadb');
      ops = new OpsSimulator({ slowDelayMs: 8_000 });
      await ops.start();
      env = {
        DATABASE_URL: db.url,
        TOOLGATE_DEMO: 'off',
        TOOLGATE_ADMIN_KEY: ADMIN,
        TOOLGATE_CONFIG_DIR: makeConfigDir({ umbrella: UMBRELLA_YAML }),
        TOOLGATE_AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519')
          .privateKey.export({ type: 'pkcs8', format: 'pem' })
          .toString(),
        TOOLGATE_AUDIT_SECRET: randomBytes(16).toString('hex'),
        TOOLGATE_T_UMBRELLA__OPS_URL: ops.url,
        REDIS_URL: 'redis://127.0.0.1:6379',
        TOOLGATE_REDIS_PREFIX: `test-${randomBytes(4).toString('hex')}`,
      };
      [a, b] = await Promise.all([
        startGatewayProcess({ ...env, TOOLGATE_INSTANCE_ID: 'gw-a' }),
        startGatewayProcess({ ...env, TOOLGATE_INSTANCE_ID: 'gw-b' }),
      ]);
      agent = await createKey('agent');
      approver = await createKey('approver');
    }, 120_000);
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await ops?.close();
      await db?.drop();
    });

    it('runs a call parked on one gateway and approved on the other exactly once', async () => {
      const before = ops.stats.restarts;
      const parked = await invoke(a, 'restart_service', {
        service: 'payment-api',
        reason: '两进程审批测试：重启支付服务',
      });
      expect(parked.status).toBe(202);
      const approved = await api(b, 'POST', `/v1/approvals/${parked.body.approvalId}/approve`, approver, {});
      expect(approved.body.data.call.status).toBe('succeeded');
      // Time must pass here: past the orphan pick-up delay, nobody runs it a second time.
      await sleep(3_000);
      expect(ops.stats.restarts).toBe(before + 1);
      expect((await api(a, 'GET', `/v1/calls/${parked.body.callId}`, agent)).body.data.status).toBe(
        'succeeded',
      );
    });

    it('runs 50 concurrent requests with one Idempotency-Key, spread over both gateways, once', async () => {
      const before = ops.stats.requests;
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          invoke(i % 2 ? a : b, 'read_logs', { service: 'search-api', limit: 3 }, { key: 'cluster-key-1' }),
        ),
      );
      expect(answers.every((x) => x.status === 200 && x.body.status === 'ok')).toBe(true);
      expect(new Set(answers.map((x) => JSON.stringify(x.body))).size).toBe(1);
      expect(new Set(answers.map((x) => x.headers.get('x-call-id'))).size).toBe(1);
      expect(ops.stats.requests - before).toBe(1);
    });

    it('holds a tenant quota across both gateways with Redis, answering 429 with Retry-After', async () => {
      await waitForMinuteRoom(12_000); // stay inside one one-minute window of the quota
      const answers = [];
      for (let i = 0; i < 16; i++)
        answers.push(await invoke(i % 2 ? a : b, 'get_service_status', { service: 'payment-api' }));
      expect(answers.filter((x) => x.status === 200)).toHaveLength(10);
      const limited = answers.filter((x) => x.status === 429);
      expect(limited).toHaveLength(6);
      expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('shows a call interrupted by SIGKILL, and a retry with the same key sends the upstream the same key', async () => {
      const sessionId = 'session-kill-1';
      const key = 'restart-legacy-1';
      const input = { service: 'legacy-batch', reason: '批处理卡死，需要重启以释放连接' };
      const parked = await invoke(a, 'restart_service', input, { sessionId, key });
      const firstCallId = parked.body.callId as string;
      const received = ops.stats.requests;
      void api(a, 'POST', `/v1/approvals/${parked.body.approvalId}/approve`, approver, {}).catch(
        () => undefined,
      );
      // The restart has reached the slow upstream (8 s on legacy-batch): it is in flight when killed.
      await waitFor(() => ops.stats.requests > received, {
        timeoutMs: 10_000,
        what: 'the approved restart to reach the upstream',
      });
      await a.stop('SIGKILL');
      a = await startGatewayProcess({ ...env, TOOLGATE_INSTANCE_ID: 'gw-a' });

      const state = await api(a, 'GET', `/v1/calls/${firstCallId}`, agent);
      expect(state.body.data).toMatchObject({ status: 'interrupted', result: { code: 'INTERRUPTED' } });
      const story = (await api(a, 'GET', `/v1/audit/calls/${firstCallId}`, ADMIN)).body.data.events.map(
        (e: any) => e.event,
      );
      expect(story).toContain('interrupted');

      const retry = await invoke(a, 'restart_service', input, { sessionId, key });
      expect(retry.status).toBe(202); // a new run of the call asks again
      expect(retry.body.callId).not.toBe(firstCallId);
      const done = await api(b, 'POST', `/v1/approvals/${retry.body.approvalId}/approve`, approver, {});
      expect(done.body.data.call.status).toBe('succeeded');
      expect(ops.stats.idempotencyKeys).toContain(`${sessionId}:${firstCallId}`);
    }, 90_000);
  },
);
