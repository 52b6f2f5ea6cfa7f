import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { McpTaskService } from '@toolgate/mcp';
import { KeyConcurrency } from '@toolgate/quotas';
import {
  makeConfigDir,
  openRawSql,
  startFakeOpenAI,
  startTestGateway,
  toolResultsOf,
  waitFor,
  waitForMinuteRoom,
  type FakeOpenAI,
  type RawSql,
  type TestGateway,
} from '@toolgate/testing';
import { DataSource } from 'typeorm';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskPolls } from '../../libs/mcp/src/tasks/task-polls.js';

/**
 * Work nobody limited (issue 21, item 13): run starts and MCP tasks count against call quotas; a
 * key's runs in flight, run streams and tasks/result waits are capped; tasks/result waits share
 * one poll per task and stop when their client leaves; tokensPerDay has a platform ceiling.
 */

const RESTART = { service: 'payment-api', reason: '滚动发布后内存泄漏，需要重启' };
const CAPS = { runsInFlightPerKey: 2, runStreamsPerKey: 1, taskWaitsPerKey: 30, maxTokensPerDay: 1000 };
const PLATFORM_YAML = `quotas:\n${Object.entries(CAPS)
  .map(([k, v]) => `  ${k}: ${v}`)
  .join('\n')}\nruns:\n  pollMs: 200\n`;

/** A tenant whose keys may make one call a minute. */
const SLOW_YAML = `
id: slowlane
name: Slow lane
connectors:
  ops_api:
    baseUrl: \${DEMO_OPS_URL}
    token: demo-ops-token
quotas:
  - { scope: key, perMinute: 1 }
agentTypes:
  ops:
    tools:
      - get_service_status
      - restart_service
`;

async function connect(baseUrl: string, key: string, agentType: string): Promise<Client> {
  const client = new Client(
    { name: 'toolgate-limits-e2e', version: '1.0.0' },
    { capabilities: { tasks: { list: {}, cancel: {}, requests: {} } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp/${agentType}`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

describe('limits on the work a key can leave running', () => {
  let gw: TestGateway;
  let fake: FakeOpenAI;
  let sql: RawSql;
  const clients: Client[] = [];

  beforeAll(async () => {
    // Every run asks for restart_service, and parks on its approval.
    fake = await startFakeOpenAI((body) =>
      toolResultsOf(body).length
        ? { text: 'done' }
        : { toolCalls: [{ id: 'c0', name: 'restart_service', arguments: JSON.stringify(RESTART) }] },
    );
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({ slowlane: SLOW_YAML }, PLATFORM_YAML),
        TOOLGATE_MODEL_BASE_URL: fake.url,
        TOOLGATE_MODEL_API_KEY: 'sk-test',
        TOOLGATE_MODEL: 'default/scripted',
      },
    });
    sql = await openRawSql(gw.db);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await sql?.close();
    await gw?.close();
    await fake?.close();
  });

  const keyIdOf = async (key: string) =>
    (await gw.api('GET', '/v1/me', { key })).body.data.principalId as string;
  const runsOf = async (keyId: string) =>
    Number(
      (
        await sql.query<{ n: number }>('SELECT COUNT(*) AS n FROM agent_runs WHERE principal_id = ?', [keyId])
      )[0]!.n,
    );
  const tasksOf = async (keyId: string) =>
    Number(
      (
        await sql.query<{ n: number }>('SELECT COUNT(*) AS n FROM mcp_tasks WHERE principal_id = ?', [keyId])
      )[0]!.n,
    );

  it("counts a run's start as a call of its key: past the quota, 429 RATE_LIMITED and no run", async () => {
    const agent = await gw.createKey('agent', 'slowlane');
    const keyId = await keyIdOf(agent);
    await waitForMinuteRoom(5_000);
    const first = await gw.api('POST', '/v1/agents/ops/runs', { key: agent, body: { input: 'first' } });
    expect([200, 202]).toContain(first.status);
    const refused = await gw.api('POST', '/v1/agents/ops/runs', { key: agent, body: { input: 'second' } });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      code: 'RATE_LIMITED',
      details: { quota: { scope: 'key', perMinute: 1 }, retryAfterSeconds: expect.any(Number) },
    });
    expect(Number(refused.headers.get('retry-after'))).toBe(refused.body.details.retryAfterSeconds);
    expect(await runsOf(keyId)).toBe(1);
  });

  it('counts an MCP task as its call: past the quota the request is refused and no task is kept', async () => {
    const agent = await gw.createKey('agent', 'slowlane');
    const keyId = await keyIdOf(agent);
    const client = await connect(gw.url, agent, 'ops');
    clients.push(client);
    await waitForMinuteRoom(5_000);
    const asTask = () =>
      client.request(
        { method: 'tools/call', params: { name: 'restart_service', arguments: RESTART, task: {} } },
        CreateTaskResultSchema,
      );
    expect((await asTask()).task.status).toBe('working');
    const err = await asTask().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    expect(err).toMatchObject({
      code: -32029,
      data: { code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } },
    });
    expect(await tasksOf(keyId)).toBe(1);
  });

  it("caps a key's runs in flight (parked ones too), on its own and not its neighbours'", async () => {
    const agent = await gw.createKey('agent', 'acme');
    const keyId = await keyIdOf(agent);
    const start = (key = agent) =>
      gw.api('POST', '/v1/agents/ops_assistant/runs', { key, body: { input: 'go' } });
    const parked = [await start(), await start()];
    expect(parked.map((r) => r.status)).toEqual([202, 202]);
    const refused = await start();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      code: 'RATE_LIMITED',
      details: { cap: 'runsInFlightPerKey', limit: 2, open: 2, retryAfterSeconds: 5 },
    });
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body.error).toContain('runsInFlightPerKey');
    expect(await runsOf(keyId)).toBe(2);
    // Another key of the tenant has its own runs.
    expect((await start(await gw.createKey('agent', 'acme'))).status).toBe(202);
    // One ends: the key may start again.
    await gw.api('POST', `/v1/runs/${parked[0]!.body.runId}/cancel`, { key: agent });
    expect((await start()).status).toBe(202);
  });

  it("caps a key's open run streams: a second is refused (and starts no run) until the first ends", async () => {
    const agent = await gw.createKey('agent', 'acme');
    const keyId = await keyIdOf(agent);
    const parked = await gw.api('POST', '/v1/agents/ops_assistant/runs', {
      key: agent,
      body: { input: 'go' },
    });
    expect(parked.status).toBe(202);
    const follow = new AbortController();
    const open = await fetch(`${gw.url}/v1/runs/${parked.body.runId}/events`, {
      headers: { authorization: `Bearer ${agent}`, accept: 'text/event-stream' },
      signal: follow.signal,
    });
    expect(open.status).toBe(200);
    const second = await gw.api('GET', `/v1/runs/${parked.body.runId}/events`, {
      key: agent,
      headers: { accept: 'text/event-stream' },
    });
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({
      code: 'RATE_LIMITED',
      details: { cap: 'runStreamsPerKey', limit: 1 },
    });
    expect(second.headers.get('retry-after')).toBe('5');
    const streamedStart = await gw.api('POST', '/v1/agents/ops_assistant/runs', {
      key: agent,
      body: { input: 'go' },
      headers: { accept: 'text/event-stream' },
    });
    expect(streamedStart.status).toBe(429);
    expect(await runsOf(keyId)).toBe(1);
    // An auditor's stream is its own.
    const auditorStream = new AbortController();
    const audited = await fetch(`${gw.url}/v1/runs/${parked.body.runId}/events`, {
      headers: {
        authorization: `Bearer ${await gw.createKey('auditor', 'acme')}`,
        accept: 'text/event-stream',
      },
      signal: auditorStream.signal,
    });
    expect(audited.status).toBe(200);
    auditorStream.abort();
    follow.abort();
    const caps = gw.app.get(KeyConcurrency);
    await waitFor(() => caps.size === 0, { what: 'the streams to be given back' });
    const again = new AbortController();
    const reopened = await fetch(`${gw.url}/v1/runs/${parked.body.runId}/events`, {
      headers: { authorization: `Bearer ${agent}`, accept: 'text/event-stream' },
      signal: again.signal,
    });
    expect(reopened.status).toBe(200);
    again.abort();
    await waitFor(() => caps.size === 0, { what: 'the stream to be given back' });
  });

  it('shares one poll among the tasks/result waits of a task, caps them per key, and stops reading when the clients leave', async () => {
    const agent = await gw.createKey('agent', 'acme');
    const client = await connect(gw.url, agent, 'ops_assistant');
    clients.push(client);
    const { task } = await client.request(
      { method: 'tools/call', params: { name: 'restart_service', arguments: RESTART, task: {} } },
      CreateTaskResultSchema,
    );
    // Reads of the tasks table, counted as the gateway sends them (both databases).
    const dataSource = gw.app.get(DataSource);
    let taskReads = 0;
    const logger = dataSource.logger;
    const logQuery = logger.logQuery.bind(logger);
    logger.logQuery = (query, parameters, runner) => {
      if (/^\s*SELECT/i.test(query) && query.includes('mcp_tasks')) taskReads++;
      return logQuery(query, parameters, runner);
    };
    const options = (gw.app.get(McpTaskService) as unknown as { options: { pollIntervalMs: number } })
      .options;
    const interval = options.pollIntervalMs;
    options.pollIntervalMs = 100;
    const caps = gw.app.get(KeyConcurrency);
    const polls = gw.app.get(TaskPolls);
    try {
      const waits = Array.from({ length: CAPS.taskWaitsPerKey }, (_, i) => {
        const gone = new AbortController();
        const answer = fetch(`${gw.url}/mcp/ops_assistant`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${agent}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: i,
            method: 'tasks/result',
            params: { taskId: task.taskId },
          }),
          signal: gone.signal,
        }).catch(() => null);
        return { gone, answer };
      });
      await waitFor(() => caps.size === CAPS.taskWaitsPerKey, { what: 'every wait to be open' });
      // Thirty requests wait on the task; one poll reads it for all of them.
      expect(polls.size).toBe(1);
      const before = taskReads;
      await waitFor(() => taskReads >= before + 3, { what: 'the shared poll to read' });

      // One more wait of the same key is refused: -32029, the RATE_LIMITED envelope in data.
      const extra = await client.experimental.tasks.getTaskResult(task.taskId, CreateTaskResultSchema).then(
        () => null,
        (e: unknown) => e,
      );
      expect(extra).toMatchObject({
        code: -32029,
        data: { code: 'RATE_LIMITED', details: { cap: 'taskWaitsPerKey', limit: CAPS.taskWaitsPerKey } },
      });

      // Every client leaves: the waits end, and the task is read no more.
      for (const w of waits) w.gone.abort();
      await Promise.all(waits.map((w) => w.answer));
      await waitFor(() => caps.size === 0 && polls.size === 0, { what: 'the waits to end' });
      const after = taskReads;
      await new Promise((r) => setTimeout(r, 10 * options.pollIntervalMs));
      expect(taskReads).toBe(after);
    } finally {
      options.pollIntervalMs = interval;
      logger.logQuery = logQuery;
    }
  });

  it("refuses a tenant file above the platform's tokensPerDay ceiling, and holds tenants without a cap to it", async () => {
    const exported = await gw.api('GET', '/v1/admin/tenants/globex/export');
    const file = parse(exported.text) as Record<string, unknown>;
    const withCap = (tokensPerDay: number) => ({ yaml: stringify({ ...file, quotas: [{ tokensPerDay }] }) });
    for (const key of [await gw.createKey('tenant_admin', 'globex'), undefined]) {
      const above = await gw.api('POST', '/v1/admin/tenants/globex/import', { key, body: withCap(5_000) });
      expect(above.status).toBe(400);
      expect(above.body.code).toBe('INVALID_INPUT');
      expect(above.text).toContain('quotas[0].tokensPerDay');
      expect(above.text).toContain('quotas.maxTokensPerDay');
    }
    const within = await gw.api('POST', '/v1/admin/tenants/globex/import', { body: withCap(800) });
    expect(within.status).toBe(200);
    const stats = await gw.api('GET', '/v1/admin/stats');
    const today = stats.body.data.runs.today.tenants as { tenantId: string; tokensPerDay: number | null }[];
    const limitOf = (t: string) => today.find((r) => r.tenantId === t)?.tokensPerDay;
    const acmeOverview = await gw.api('GET', '/v1/admin/stats', {
      key: await gw.createKey('auditor', 'acme'),
    });
    expect(acmeOverview.body.data.runs.today.tenants).toEqual([
      { tenantId: 'acme', tokens: expect.any(Number), tokensPerDay: CAPS.maxTokensPerDay },
    ]);
    if (limitOf('globex') !== undefined) expect(limitOf('globex')).toBe(800);
  });
});
