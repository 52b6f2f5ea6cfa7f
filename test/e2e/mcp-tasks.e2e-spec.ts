import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  McpError,
  RELATED_TASK_META_KEY,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { McpTaskService } from '@toolgate/mcp';
import { McpTaskRepository } from '../../libs/mcp/src/tasks/mcp-task.repository.js';
import { TaskWaiters } from '../../libs/mcp/src/tasks/task-waiters.js';
import { DemoBackends, OpsSimulator } from '@toolgate/tool-packs/testing';
import {
  callApi,
  createTestDatabase,
  openRawSql,
  makeConfigDir,
  startGatewayProcess,
  startTestGateway,
  testDatabaseKind,
  waitFor,
  type GatewayProcess,
  type TestDatabase,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const RESTART = { service: 'payment-api', reason: '滚动发布后内存泄漏，需要重启' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Short enough for the expiry test, long enough for the others to decide in time. */
const EXPIRY_MS = 6_000;

/** The SDK's own client, declaring the tasks capability, over Streamable HTTP at `/mcp/:agentType`. */
async function connect(baseUrl: string, key: string, agentType = 'ops_assistant'): Promise<Client> {
  const client = new Client(
    { name: 'toolgate-tasks-e2e', version: '1.0.0' },
    { capabilities: { tasks: { list: {}, cancel: {}, requests: {} } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp/${agentType}`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

/** A task-augmented `tools/call`: the answer is a CreateTaskResult, never the tool result. */
async function callAsTask(client: Client, name: string, args: Record<string, unknown>) {
  const created = await client.request(
    { method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );
  return created.task;
}

const rpcError = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
};

describe('approvals through MCP tasks', () => {
  let gw: TestGateway;
  let agent: string;
  let otherAgent: string;
  let approver: string;
  let globexAgent: string;
  let client: Client;
  let restarts: () => number;
  const clients: Client[] = [];

  beforeAll(async () => {
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({}, `approvals:\n  expiryMs: ${EXPIRY_MS}\n  pollMs: 500\n`),
      },
    });
    agent = await gw.createKey('agent', 'acme');
    otherAgent = await gw.createKey('agent', 'acme');
    approver = await gw.createKey('approver', 'acme');
    globexAgent = await gw.createKey('agent', 'globex');
    client = await connect(gw.url, agent);
    clients.push(client);
    const ops = gw.app.get(DemoBackends).ops;
    restarts = () => ops.stats.restarts;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await gw?.close();
  });

  const approvalOf = async (callId: string) =>
    (await gw.api('GET', `/v1/calls/${callId}`, { key: agent })).body.data.approvalId as string;
  const decide = (approvalId: string, decision: 'approve' | 'deny', body: unknown = {}) =>
    gw.api('POST', `/v1/approvals/${approvalId}/${decision}`, { key: approver, body });

  it('advertises tasks, parks an L3 call as a working task, and streams its result once approved', async () => {
    expect(client.getServerCapabilities()?.tasks).toMatchObject({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    // Tools say they may run as tasks; the SDK's client then asks for one by itself.
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'restart_service')?.execution).toEqual({ taskSupport: 'optional' });
    expect(tools.find((t) => t.name === 'toolgate_call_status')?.execution).toBeUndefined();
    const before = restarts();
    const stream = client.experimental.tasks.callToolStream({ name: 'restart_service', arguments: RESTART });
    const seen: string[] = [];
    let result: CallToolResult | undefined;
    let taskId = '';
    for await (const message of stream) {
      if (message.type === 'taskCreated') {
        const task = message.task;
        taskId = task.taskId;
        expect(task).toMatchObject({ status: 'working', pollInterval: 1000 });
        // It lives as long as the approval may take, plus time to read the result.
        expect(task.ttl).toBeGreaterThanOrEqual(EXPIRY_MS + 3600_000);
        // The task id is the call id: REST sees the same parked call.
        const view = (await gw.api('GET', `/v1/calls/${task.taskId}`, { key: agent })).body.data;
        expect(view).toMatchObject({ status: 'pending_approval', tool: 'restart_service' });
        const got = await client.experimental.tasks.getTask(task.taskId);
        expect(got).toMatchObject({ taskId: task.taskId, status: 'working' });
        expect(got.statusMessage).toContain(view.approvalId);
        const listed = await client.experimental.tasks.listTasks();
        expect(listed.tasks.map((t) => t.taskId)).toContain(task.taskId);
        expect(restarts()).toBe(before); // nothing ran before a person said so
        expect((await decide(view.approvalId, 'approve', { comment: '同意' })).status).toBe(200);
      }
      if (message.type === 'taskStatus') seen.push(message.task.status);
      if (message.type === 'result') result = message.result as CallToolResult;
      if (message.type === 'error') throw message.error;
    }
    expect(seen.at(-1)).toBe('completed');
    expect(result).toMatchObject({ structuredContent: { service: 'payment-api', restarted: true } });
    expect(result!.isError).toBeFalsy();
    expect(restarts()).toBe(before + 1);
    // Run later by the approval, the call is still audited as one that came through MCP.
    const story = (await gw.api('GET', `/v1/audit/calls/${taskId}`)).body.data.events as {
      event: string;
      details?: Record<string, unknown> | null;
    }[];
    const ran = story.filter((e) => e.event === 'started' || e.event === 'finished');
    expect(ran.map((e) => e.event)).toEqual(['started', 'finished']);
    for (const e of ran) expect(e.details).toMatchObject({ face: 'mcp' });
  });

  it('answers the APPROVAL_DENIED envelope as the result of a denied call, its task failed', async () => {
    const before = restarts();
    const created = await client.request(
      { method: 'tools/call', params: { name: 'restart_service', arguments: RESTART, task: {} } },
      CreateTaskResultSchema,
    );
    const task = created.task;
    expect(task).toMatchObject({
      status: 'working',
      statusMessage: 'Waiting for a person to approve the call',
    });
    // What a host may hand the model at once (in the caller's language).
    const immediate = created._meta?.['io.modelcontextprotocol/model-immediate-response'];
    expect(immediate).toContain(task.taskId);
    expect(immediate).toContain("waiting for a person's approval");
    expect(
      (await decide(await approvalOf(task.taskId), 'deny', { comment: '窗口期外，不批准' })).status,
    ).toBe(200);
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'failed' });
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result).toMatchObject({
      isError: true,
      _meta: {
        'toolgate/error': {
          code: 'APPROVAL_DENIED',
          callId: task.taskId,
          details: { comment: '窗口期外，不批准' },
        },
        [RELATED_TASK_META_KEY]: { taskId: task.taskId },
      },
    });
    expect(result.structuredContent).toBeUndefined();
    expect(restarts()).toBe(before);
  });

  it('answers the APPROVAL_EXPIRED envelope when nobody decides in time', async () => {
    const task = await callAsTask(client, 'restart_service', RESTART);
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema, {
      timeout: EXPIRY_MS + 10_000,
    });
    expect(result).toMatchObject({
      isError: true,
      _meta: { 'toolgate/error': { code: 'APPROVAL_EXPIRED', callId: task.taskId } },
    });
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'failed' });
  });

  it('holds tasks/result open and answers as soon as the call is approved on this gateway', async () => {
    const options = (gw.app.get(McpTaskService) as unknown as { options: { pollIntervalMs: number } })
      .options;
    const poll = options.pollIntervalMs;
    options.pollIntervalMs = 30_000; // only the wake-up can end the wait in time
    try {
      const task = await callAsTask(client, 'restart_service', RESTART);
      const approvalId = await approvalOf(task.taskId);
      const waiters = gw.app.get(TaskWaiters);
      const parkedBefore = waiters.size;
      const waiting = client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
      await waitFor(() => waiters.size > parkedBefore, { what: 'tasks/result to wait on this gateway' });
      const approved = await decide(approvalId, 'approve', {});
      const at = Date.now();
      const result = await waiting;
      expect(Date.now() - at).toBeLessThan(2_000);
      expect(approved.body.data.call.status).toBe('succeeded');
      expect(result).toMatchObject({ structuredContent: { restarted: true } });
    } finally {
      options.pollIntervalMs = poll;
    }
  });

  it('bounds a tasks/result wait, and keeps one that gave a progress token alive with progress notifications', async () => {
    const options = (gw.app.get(McpTaskService) as unknown as { options: Record<string, number> }).options;
    const saved = { ...options };
    Object.assign(options, { heartbeatMs: 200, pollIntervalMs: 200, resultWaitMs: 500 });
    try {
      const task = await callAsTask(client, 'restart_service', RESTART);
      const approvalId = await approvalOf(task.taskId);
      // Without a progress token the wait is bounded and says so: ask again.
      const bounded = await rpcError(
        client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema),
      );
      expect(bounded.code).toBe(-32001);
      expect(bounded.message).toContain('still working');
      const beats: { progress: number; message?: string }[] = [];
      const waiting = client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema, {
        onprogress: (p) => beats.push(p),
        resetTimeoutOnProgress: true,
        timeout: 2_500, // the client's own limit: only the notifications keep it waiting
      });
      // Time must pass here: past both the client's timeout and the unstreamed bound.
      await sleep(3_500);
      expect((await decide(approvalId, 'approve', {})).status).toBe(200);
      const result = await waiting;
      expect(result).toMatchObject({ structuredContent: { restarted: true } });
      expect(beats.length).toBeGreaterThanOrEqual(5);
      expect(beats[0]!.message).toContain(approvalId);
    } finally {
      Object.assign(options, saved);
    }
  });

  it('answers a call that needs no approval through the task as well (L0)', async () => {
    const task = await callAsTask(client, 'get_service_status', { service: 'payment-api' });
    expect(task.status).toBe('working'); // every task begins working (spec)
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ service: 'payment-api' });
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'completed' });
    // The stored answer waits for tasks/result sealed at rest, never in clear (ADR 036).
    const sql = await openRawSql(gw.db);
    try {
      const [row] = await sql.query<{ result: unknown }>('SELECT result FROM mcp_tasks WHERE task_id = ?', [
        task.taskId,
      ]);
      const stored = typeof row!.result === 'string' ? row!.result : JSON.stringify(row!.result);
      expect(stored).toMatch(/tg1:/);
      expect(stored).not.toContain('payment-api');
    } finally {
      await sql.close();
    }
  });

  it('refuses a task-augmented call of a meta-tool that answers at once (no taskSupport listed): -32601', async () => {
    const err = await rpcError(callAsTask(client, 'toolgate_call_status', { callId: 'x' }));
    expect(err.code).toBe(-32601);
  });

  it("lists a key's own tasks newest first, 50 a page, with an opaque cursor", async () => {
    const lister = await connect(gw.url, await gw.createKey('agent', 'acme'));
    clients.push(lister);
    const made: string[] = [];
    for (let i = 0; i < 52; i++)
      made.push((await callAsTask(lister, 'get_service_status', { service: 'payment-api' })).taskId);
    const first = await lister.experimental.tasks.listTasks();
    expect(first.tasks).toHaveLength(50);
    expect(first.nextCursor).toBeDefined();
    const second = await lister.experimental.tasks.listTasks(first.nextCursor);
    expect(second.nextCursor).toBeUndefined();
    // Newest first to the millisecond (UUIDv7 order): every task once, none from another key.
    expect([...first.tasks, ...second.tasks].map((t) => t.taskId)).toEqual([...made].sort().reverse());
    expect(second.tasks.every((t) => t.status === 'completed')).toBe(true);
  });

  it('answers an invalid input as a failed task whose result is the readable INVALID_INPUT tool error', async () => {
    const task = await callAsTask(client, 'restart_service', { service: 'payment-api' });
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result).toMatchObject({ isError: true, _meta: { 'toolgate/error': { code: 'INVALID_INPUT' } } });
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'failed' });
  });

  it('cancels a pending task: its approval is withdrawn, the call never runs, a second cancel is refused', async () => {
    const before = restarts();
    const task = await callAsTask(client, 'restart_service', RESTART);
    const approvalId = await approvalOf(task.taskId);
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    const approval = (await gw.api('GET', `/v1/approvals/${approvalId}`, { key: approver })).body.data;
    expect(approval.status).toBe('denied');
    expect((await decide(approvalId, 'approve', {})).status).not.toBe(200);
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result).toMatchObject({ isError: true, _meta: { 'toolgate/error': { code: 'APPROVAL_DENIED' } } });
    expect((await rpcError(client.experimental.tasks.cancelTask(task.taskId))).code).toBe(-32602);
    // The trail says who withdrew it and why.
    const story = (await gw.api('GET', `/v1/audit/calls/${task.taskId}`)).body.data.events as {
      event: string;
      details?: Record<string, unknown>;
    }[];
    expect(story.map((e) => e.event)).toEqual(['approval_requested', 'approval_decided']);
    expect(story[1]!.details).toMatchObject({
      decision: 'withdrawn',
      reason: 'cancelled by its requester (MCP tasks/cancel)',
    });
    expect(restarts()).toBe(before);
  });

  it("shows a task to its own key only: another key or tenant gets 'not found', never its data", async () => {
    const task = await callAsTask(client, 'restart_service', RESTART);
    const other = await connect(gw.url, otherAgent);
    const globex = await connect(gw.url, globexAgent);
    clients.push(other, globex);
    for (const c of [other, globex]) {
      for (const ask of [
        () => c.experimental.tasks.getTask(task.taskId),
        () => c.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema),
        () => c.experimental.tasks.cancelTask(task.taskId),
      ]) {
        const err = await rpcError(ask());
        expect(err.code).toBe(-32602);
        expect(err.message).toContain('not found');
        expect(err.message).not.toContain('restart');
      }
      expect((await c.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).not.toContain(task.taskId);
    }
    // Ids that are not task ids, and cursors that are not ours to make, are refused cleanly.
    expect((await rpcError(client.experimental.tasks.getTask('../../etc/passwd'))).code).toBe(-32602);
    expect((await rpcError(client.experimental.tasks.listTasks('not-a-cursor'))).code).toBe(-32602);
    // Still pending for its owner.
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('working');
    await client.experimental.tasks.cancelTask(task.taskId);
  });

  // Last: it forgets every task of this gateway's database.
  it('forgets tasks past their ttl (the sweep deletes them; asking answers not found)', async () => {
    const task = await callAsTask(client, 'get_service_status', { service: 'payment-api' });
    await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    const later = new Date(Date.parse(task.createdAt) + task.ttl! + 1);
    expect(await gw.app.get(McpTaskRepository).deleteExpired(later)).toBeGreaterThan(0);
    expect((await rpcError(client.experimental.tasks.getTask(task.taskId))).code).toBe(-32602);
    expect((await client.experimental.tasks.listTasks()).tasks).toEqual([]);
  });
});

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
const ADMIN = 'tg_mcp-tasks-cluster-admin-key-0123';

// Two gateway processes on one database is the production topology; SQLite is single-process.
describe.skipIf(testDatabaseKind() !== 'mariadb')('MCP tasks across two gateway processes', () => {
  let db: TestDatabase;
  let ops: OpsSimulator;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let agent: string;
  let approver: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('mariadb');
    ops = new OpsSimulator();
    await ops.start();
    const env = {
      DATABASE_URL: db.url,
      TOOLGATE_DEMO: 'off',
      TOOLGATE_ADMIN_KEY: ADMIN,
      TOOLGATE_CONFIG_DIR: makeConfigDir({ umbrella: UMBRELLA_YAML }),
      TOOLGATE_AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      TOOLGATE_AUDIT_SECRET: randomBytes(16).toString('hex'),
      TOOLGATE_T_UMBRELLA__OPS_URL: ops.url,
    };
    [a, b] = await Promise.all([
      startGatewayProcess({ ...env, TOOLGATE_INSTANCE_ID: 'gw-a' }),
      startGatewayProcess({ ...env, TOOLGATE_INSTANCE_ID: 'gw-b' }),
    ]);
    const createKey = async (role: string) =>
      (
        await callApi(a.url, 'POST', '/v1/admin/keys', {
          key: ADMIN,
          body: { name: role, role, tenantId: 'umbrella' },
        })
      ).body.data.key as string;
    agent = await createKey('agent');
    approver = await createKey('approver');
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await Promise.all([a?.stop(), b?.stop()]);
    await ops?.close();
    await db?.drop();
  });

  it('creates the task on one gateway, is approved on the other, and tasks/result on the first answers', async () => {
    const first = await connect(a.url, agent);
    const second = await connect(b.url, agent);
    clients.push(first, second);
    const before = ops.stats.restarts;
    const task = await callAsTask(first, 'restart_service', RESTART);
    expect(await second.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'working' });
    const approvalId = (await callApi(b.url, 'GET', `/v1/calls/${task.taskId}`, { key: agent })).body.data
      .approvalId as string;
    const waiting = first.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    // Time must pass here: gateway A runs in another process and shows no sign that tasks/result is
    // parked; the pause lets the request reach it before B decides (later, it still answers).
    await sleep(200);
    const approved = await callApi(b.url, 'POST', `/v1/approvals/${approvalId}/approve`, {
      key: approver,
      body: {},
    });
    expect(approved.body.data.call.status).toBe('succeeded');
    // Gateway A hears of the decision from the database (its poll), not from gateway B.
    const result = await waiting;
    expect(result).toMatchObject({ structuredContent: { service: 'payment-api', restarted: true } });
    expect(await second.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'completed' });
    expect(ops.stats.restarts).toBe(before + 1);
  });
});
