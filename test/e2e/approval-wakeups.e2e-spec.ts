import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { OpsSimulator } from '@toolgate/tool-packs/testing';
import {
  callApi,
  createTestDatabase,
  leaveApprovedCallsHeld,
  makeConfigDir,
  openRawSql,
  startGatewayProcess,
  testDatabaseKind,
  waitFor,
  type GatewayProcess,
  type RawSql,
  type TestDatabase,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ADMIN = 'tg_wakeups-test-admin-key-0123456';
const REDIS_URL = 'redis://127.0.0.1:6379';
/** Nothing listens here: a Redis that is down from the start. */
const DEAD_REDIS_URL = 'redis://127.0.0.1:1';
const RESTART = { service: 'payment-api', reason: '两进程唤醒测试：重启支付服务' };
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
      - restart_service
`;

/** The SDK's own client, declaring the tasks capability, over Streamable HTTP at `/mcp/:agentType`. */
async function connect(baseUrl: string, key: string): Promise<Client> {
  const client = new Client(
    { name: 'toolgate-wakeups-e2e', version: '1.0.0' },
    { capabilities: { tasks: { list: {}, cancel: {}, requests: {} } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp/ops_assistant`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

/**
 * A gateway cluster on one MariaDB database: `start(id, redisUrl)` adds a gateway process. Each
 * suite has its own Redis prefix, so parallel suites never hear each other.
 */
function cluster(platformYaml?: string) {
  const prefix = `test-wakeups-${randomBytes(4).toString('hex')}`;
  const state = {
    prefix,
    db: undefined as unknown as TestDatabase,
    sql: undefined as unknown as RawSql,
    ops: undefined as unknown as OpsSimulator,
    env: {} as Record<string, string>,
    gateways: [] as GatewayProcess[],
    clients: [] as Client[],
    agent: '',
    approver: '',
  };
  const start = async (id: string, redisUrl: string) => {
    const gw = await startGatewayProcess({
      ...state.env,
      REDIS_URL: redisUrl,
      TOOLGATE_INSTANCE_ID: id,
    });
    state.gateways.push(gw);
    return gw;
  };
  const setUp = async () => {
    state.db = await createTestDatabase('mariadb');
    state.sql = await openRawSql(state.db);
    state.ops = new OpsSimulator();
    await state.ops.start();
    state.env = {
      DATABASE_URL: state.db.url,
      TOOLGATE_DEMO: 'off',
      TOOLGATE_ADMIN_KEY: ADMIN,
      TOOLGATE_CONFIG_DIR: makeConfigDir({ umbrella: UMBRELLA_YAML }, platformYaml),
      TOOLGATE_AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      TOOLGATE_AUDIT_SECRET: randomBytes(16).toString('hex'),
      TOOLGATE_T_UMBRELLA__OPS_URL: state.ops.url,
      TOOLGATE_REDIS_PREFIX: prefix,
    };
  };
  const createKeys = async (gw: GatewayProcess) => {
    const create = async (role: string) =>
      (
        await callApi(gw.url, 'POST', '/v1/admin/keys', {
          key: ADMIN,
          body: { name: role, role, tenantId: 'umbrella' },
        })
      ).body.data.key as string;
    state.agent = await create('agent');
    state.approver = await create('approver');
  };
  const tearDown = async () => {
    await Promise.all(state.clients.map((c) => c.close().catch(() => undefined)));
    await Promise.all(state.gateways.map((g) => g.stop()));
    await state.ops?.close();
    await state.sql?.close();
    await state.db?.drop();
  };
  const park = async (gw: GatewayProcess) => {
    const parked = await callApi(gw.url, 'POST', '/v1/agents/ops_assistant/tools/restart_service/invoke', {
      key: state.agent,
      body: { input: RESTART },
    });
    expect(parked.status).toBe(202);
    return parked.body as { callId: string; approvalId: string };
  };
  const approve = (gw: GatewayProcess, approvalId: string) =>
    callApi(gw.url, 'POST', `/v1/approvals/${approvalId}/approve`, { key: state.approver, body: {} });
  const statusesOf = async (callIds: string[]) =>
    (
      await state.sql.query<{ status: string }>(
        `SELECT status FROM tool_calls WHERE tenant_id = 'umbrella' AND call_id IN (${callIds.map(() => '?').join(', ')})`,
        callIds,
      )
    ).map((r) => r.status);
  /** An MCP task parked on `on`, its tasks/result waiting there, approved on `by`: ms from the approval's answer to the result. */
  const taskDecidedElsewhere = async (on: GatewayProcess, by: GatewayProcess) => {
    const client = await connect(on.url, state.agent);
    state.clients.push(client);
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'restart_service', arguments: RESTART, task: { ttl: 60_000 } },
      },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    const approvalId = (await callApi(by.url, 'GET', `/v1/calls/${taskId}`, { key: state.agent })).body.data
      .approvalId as string;
    const waiting = client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    // The other process shows no sign that tasks/result is parked: give the request time to get there.
    await sleep(100);
    const approved = await approve(by, approvalId);
    expect(approved.body.data.call.status).toBe('succeeded');
    const at = Date.now();
    const result = await waiting;
    expect(result).toMatchObject({ structuredContent: { service: 'payment-api', restarted: true } });
    return Date.now() - at;
  };
  return { state, start, setUp, createKeys, tearDown, park, approve, statusesOf, taskDecidedElsewhere };
}

// Several gateway processes on one database is the production topology; SQLite is single-process.
/**
 * Polling a minute apart: whatever ends before that was woken. What these tests prove is that the
 * wake-up, not the poll, ended each wait, so no bound depends on how fast this machine is today.
 */
const SLOW_POLL_MS = 60_000;

describe.skipIf(testDatabaseKind() !== 'mariadb')('approval wake-ups across gateways with Redis', () => {
  const c = cluster(
    `approvals:\n  pollMs: ${SLOW_POLL_MS}\n  orphanAfterMs: ${SLOW_POLL_MS}\nmcp:\n  tasksPollMs: ${SLOW_POLL_MS}\n`,
  );
  let a: GatewayProcess;
  let b: GatewayProcess;

  beforeAll(async () => {
    await c.setUp();
    [a, b] = await Promise.all([c.start('gw-a', REDIS_URL), c.start('gw-b', REDIS_URL)]);
    await c.createKeys(a);
  }, 120_000);
  afterAll(() => c.tearDown());

  it('ends tasks/result on gateway A as soon as gateway B decides, long before its poll', async () => {
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) waits.push(await c.taskDecidedElsewhere(a, b));
    // Gateway A re-reads the call once a minute: an answer within a third of that was woken.
    for (const ms of waits) expect(ms).toBeLessThan(SLOW_POLL_MS / 3);
  }, 120_000);

  it('runs the approved calls of a gateway killed before claiming them on another one, once, long before a poll', async () => {
    const c3 = await c.start('gw-c', REDIS_URL);
    const parked = [await c.park(c3), await c.park(c3), await c.park(c3)];
    const callIds = parked.map((p) => p.callId);
    const before = c.state.ops.stats.restarts;
    await leaveApprovedCallsHeld(
      c.state.sql,
      REDIS_URL,
      { prefix: c.state.prefix, instanceId: 'gw-c' },
      'umbrella',
      callIds,
    );
    const killedAt = Date.now();
    await c3.stop('SIGKILL');
    await waitFor(async () => (await c.statusesOf(callIds)).every((s) => s === 'succeeded'), {
      timeoutMs: SLOW_POLL_MS / 3,
      intervalMs: 5,
      what: 'the held calls to run on a surviving gateway',
    });
    // Polling alone would take orphanAfterMs and up to a pollMs more: two minutes here.
    expect(Date.now() - killedAt).toBeLessThan(SLOW_POLL_MS / 3);
    expect(c.state.ops.stats.restarts - before).toBe(3);
    const ranOn = await c.state.sql.query<{ instance_id: string }>(
      `SELECT instance_id FROM tool_calls WHERE tenant_id = 'umbrella' AND call_id IN (?, ?, ?)`,
      callIds,
    );
    expect(ranOn.every((r) => r.instance_id === 'gw-a' || r.instance_id === 'gw-b')).toBe(true);
    // Nothing ran a second time (the claim fences every other gateway; the suite below polls too).
    await sleep(500);
    expect(c.state.ops.stats.restarts - before).toBe(3);
  }, 120_000);

  it('ignores a forged decision message: the waiter re-reads the database and still waits', async () => {
    const { Redis } = await import('ioredis');
    const redis = new Redis(REDIS_URL);
    try {
      const client = await connect(a.url, c.state.agent);
      c.state.clients.push(client);
      const created = await client.request(
        {
          method: 'tools/call',
          params: { name: 'restart_service', arguments: RESTART, task: { ttl: 60_000 } },
        },
        CreateTaskResultSchema,
      );
      const taskId = created.task.taskId;
      const approvalId = (await callApi(b.url, 'GET', `/v1/calls/${taskId}`, { key: c.state.agent })).body
        .data.approvalId as string;
      const forged = { tenantId: 'umbrella', approvalId, callId: taskId, from: 'gw-forged' };
      await redis.publish(`${c.state.prefix}:approvals:decided`, JSON.stringify(forged));
      await redis.publish(`${c.state.prefix}:approvals:decided`, 'not json');
      await sleep(100);
      expect(await c.statusesOf([taskId])).toEqual(['pending_approval']);
      expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'working' });
    } finally {
      redis.disconnect();
    }
  });
});

describe.skipIf(testDatabaseKind() !== 'mariadb')('approvals across gateways with Redis down', () => {
  // A short floor, so that polling alone finishes in test time.
  const c = cluster('approvals:\n  pollMs: 200\n  orphanAfterMs: 500\n');
  let d: GatewayProcess;
  let e: GatewayProcess;

  beforeAll(async () => {
    await c.setUp();
    [d, e] = await Promise.all([c.start('gw-d', DEAD_REDIS_URL), c.start('gw-e', DEAD_REDIS_URL)]);
    await c.createKeys(d);
  }, 120_000);
  afterAll(() => c.tearDown());

  it('decides and runs at once, and tasks/result on the other gateway still answers by polling', async () => {
    const parked = await c.park(d);
    const started = Date.now();
    const approved = await c.approve(e, parked.approvalId);
    expect(approved.body.data.call.status).toBe('succeeded');
    // No hanging on the unreachable Redis (its commands time out in 250 ms): a hang guard.
    expect(Date.now() - started).toBeLessThan(30_000);
    // Answered by the 1 s poll (no wake-up can come): a hang guard, far from any machine's speed.
    const ms = await c.taskDecidedElsewhere(d, e);
    expect(ms).toBeLessThan(30_000);
  });

  it('runs the approved calls of a killed gateway by polling', async () => {
    const f = await c.start('gw-f', DEAD_REDIS_URL);
    const callIds = [(await c.park(f)).callId, (await c.park(f)).callId];
    const before = c.state.ops.stats.restarts;
    await leaveApprovedCallsHeld(
      c.state.sql,
      REDIS_URL,
      { prefix: `${c.state.prefix}-unheard`, instanceId: 'gw-f' },
      'umbrella',
      callIds,
    );
    await f.stop('SIGKILL');
    await waitFor(async () => (await c.statusesOf(callIds)).every((s) => s === 'succeeded'), {
      timeoutMs: 10_000,
      what: 'the poll to run the held calls',
    });
    expect(c.state.ops.stats.restarts - before).toBe(2);
  });
});
