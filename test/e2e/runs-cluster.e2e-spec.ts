import { generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  callApi,
  createTestDatabase,
  type FakeChatRequest,
  type FakeOpenAI,
  type FakeReply,
  type GatewayProcess,
  LedgerSimulator,
  makeConfigDir,
  questionOf,
  startFakeOpenAI,
  startGatewayProcess,
  type TestDatabase,
  testDatabaseKind,
  TOOLS_GATEWAY_MAIN,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ADMIN = 'tg_runs-cluster-admin-key-0123456';
const TENANT = 'ledgerco';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const LEDGERCO_YAML = `
id: ${TENANT}
name: Ledger Co
connectors:
  ledger:
    baseUrl: \${TOOLGATE_T_LEDGERCO__LEDGER_URL}
agentTypes:
  bookkeeper:
    maxSteps: 6
    tools:
      - ledger_append
      - ledger_transfer
`;

// Short leases and polls, so a takeover takes about two seconds instead of thirty.
const LEASE_MS = 2_000;
const POLL_MS = 200;
const PLATFORM_YAML = `runs:\n  leaseMs: ${LEASE_MS}\n  pollMs: ${POLL_MS}\n`;

/** How many tool results the request carries: the run's step the model is asked for. */
const resultsIn = (body: FakeChatRequest) => (body.messages ?? []).filter((m) => m.role === 'tool').length;

/** Waits until `ok(await f())`, or fails the test after `ms`. */
async function until<T>(f: () => Promise<T> | T, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    if (Date.now() > end)
      throw new Error(`condition not met within ${ms} ms; last value ${JSON.stringify(v)}`);
    await sleep(50);
  }
}

// Agent runs across two gateway OS processes on one MariaDB database (the production topology;
// SQLite is single-process by design): parked on one gateway and resumed by the other, and taken
// over by the other when the driving gateway dies mid-call. Both use one fake OpenAI server and
// one ledger upstream that counts requests per idempotency key.
describe.skipIf(testDatabaseKind() !== 'mariadb')('agent runs across two gateway processes', () => {
  let db: TestDatabase;
  let fake: FakeOpenAI;
  let ledger: LedgerSimulator;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let agent: string;
  let approver: string;
  /** Replies by question, by the number of tool results the request carries. */
  const scripts = new Map<string, (results: number) => FakeReply>();

  const api = (gw: GatewayProcess, method: string, path: string, key: string, body?: unknown) =>
    callApi(gw.url, method, path, { key, body });
  const getRun = async (gw: GatewayProcess, runId: string) =>
    (await api(gw, 'GET', `/v1/runs/${runId}`, agent)).body.data;
  const modelAsked = (question: string) =>
    fake.requests.filter((r) => questionOf(r) === question).map((r) => resultsIn(r));
  /** The run's event types, replayed from the start (the stream ends at run_finished). */
  const eventTypes = async (gw: GatewayProcess, runId: string) => {
    const res = await fetch(`${gw.url}/v1/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${agent}`, accept: 'text/event-stream' },
    });
    return [...(await res.text()).matchAll(/^event: (\S+)$/gm)].map((m) => m[1]!);
  };
  const auditOfRun = async (gw: GatewayProcess, runId: string) =>
    ((await api(gw, 'GET', `/v1/audit/events?tenantId=${TENANT}&limit=500`, ADMIN)).body.data.items as any[])
      .filter((e) => e.details?.runId === runId)
      .map((e) => e.event as string);

  beforeAll(async () => {
    db = await createTestDatabase('mariadb');
    fake = await startFakeOpenAI(
      (body) => scripts.get(questionOf(body))?.(resultsIn(body)) ?? { text: 'unscripted' },
    );
    ledger = new LedgerSimulator();
    await ledger.start();
    const env = {
      DATABASE_URL: db.url,
      TOOLGATE_DEMO: 'off',
      TOOLGATE_ADMIN_KEY: ADMIN,
      TOOLGATE_CONFIG_DIR: makeConfigDir({ [TENANT]: LEDGERCO_YAML }, PLATFORM_YAML),
      TOOLGATE_AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      TOOLGATE_AUDIT_SECRET: randomBytes(16).toString('hex'),
      TOOLGATE_T_LEDGERCO__LEDGER_URL: ledger.url,
      TOOLGATE_MODEL_BASE_URL: fake.url,
      TOOLGATE_MODEL_API_KEY: 'sk-cluster-test',
      TOOLGATE_MODEL: 'default/test-model',
    };
    const entry = { entry: TOOLS_GATEWAY_MAIN };
    [a, b] = await Promise.all([
      startGatewayProcess({ ...env, TOOLGATE_INSTANCE_ID: 'gw-a' }, entry),
      startGatewayProcess({ ...env, TOOLGATE_INSTANCE_ID: 'gw-b' }, entry),
    ]);
    const createKey = async (role: string) =>
      (await api(a, 'POST', '/v1/admin/keys', ADMIN, { name: role, role, tenantId: TENANT })).body.data
        .key as string;
    agent = await createKey('agent');
    approver = await createKey('approver');
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await ledger?.close();
    await fake?.close();
    await db?.drop();
  });

  it('parks a run on gateway A and finishes it exactly once when gateway B approves', async () => {
    const question = '给 acct-9 转账 120';
    scripts.set(question, (results) =>
      results
        ? { text: '已转账', usage: { inputTokens: 30, outputTokens: 4 } }
        : {
            toolCalls: [{ name: 'ledger_transfer', arguments: '{"to":"acct-9","amount":120}' }],
            usage: { inputTokens: 20, outputTokens: 9 },
          },
    );
    const parked = await api(a, 'POST', '/v1/agents/bookkeeper/runs', agent, { input: question });
    expect(parked.status).toBe(202);
    const { runId, approvalId, callId } = parked.body;
    expect(callId).toBe(`${runId}.0.0`);
    expect((await getRun(b, runId)).status).toBe('awaiting_approval');

    const approved = await api(b, 'POST', `/v1/approvals/${approvalId}/approve`, approver, {});
    expect(approved.status).toBe(200);
    expect(approved.body.data.call.status).toBe('succeeded');
    const done = await until(
      () => getRun(b, runId),
      (r) => r.status === 'completed',
    );
    // Time must pass here: several polls of both gateways later, nobody has driven it again.
    await sleep(POLL_MS * 4);
    for (const gw of [a, b])
      expect(await getRun(gw, runId)).toMatchObject({
        status: 'completed',
        output: '已转账',
        usage: { inputTokens: 50, outputTokens: 13, totalTokens: 63 },
      });
    expect(done.steps[0].toolCalls).toMatchObject([{ callId, status: 'succeeded' }]);

    const key = `${done.sessionId}:${callId}`;
    expect(ledger.requestsWith(key)).toBe(1);
    expect(ledger.stats.written.filter((w) => w.key === key)).toHaveLength(1);
    expect(modelAsked(question)).toEqual([0, 1]);
    for (const gw of [a, b]) {
      const types = await eventTypes(gw, runId);
      expect(types.filter((t) => t === 'run_finished')).toHaveLength(1);
      expect(types).toEqual(expect.arrayContaining(['approval_requested', 'approval_decided']));
    }
    const trail = await auditOfRun(a, runId);
    expect(trail.filter((e) => e === 'run_finished')).toHaveLength(1);
    expect(trail.filter((e) => e === 'run_started')).toHaveLength(1);
    const verify = await api(b, 'GET', `/v1/audit/verify?tenantId=${TENANT}`, ADMIN);
    expect(verify.body.data).toMatchObject({ ok: true });
  });

  it('takes over a run whose gateway was SIGKILLed mid-call: finished calls stay, the interrupted one re-runs under its key', async () => {
    const question = '记两笔账';
    scripts.set(question, (results) => {
      if (results === 0) return { toolCalls: [{ name: 'ledger_append', arguments: '{"entry":"第一笔"}' }] };
      if (results === 1)
        return { toolCalls: [{ name: 'ledger_append', arguments: '{"entry":"第二笔","slowMs":20000}' }] };
      return { text: `记好了 ${results} 笔` };
    });
    const first = api(a, 'POST', '/v1/agents/bookkeeper/runs', agent, { input: question }).catch(
      (err: Error) => err,
    );
    // Step 2's call is now held by the upstream, gateway A waiting on it.
    const slowKey = await until(
      () => Object.keys(ledger.stats.byKey).find((k) => k.endsWith('.1.0')),
      (k) => k !== undefined,
    );
    const runId = slowKey!.slice(slowKey!.indexOf(':') + 1, -'.1.0'.length);
    const running = await getRun(b, runId);
    expect(running.status).toBe('running');
    const firstKey = `${running.sessionId}:${runId}.0.0`;
    expect(slowKey).toBe(`${running.sessionId}:${runId}.1.0`);
    expect(ledger.requestsWith(firstKey)).toBe(1);

    const killedAt = Date.now();
    await a.stop('SIGKILL');
    expect(await first).toBeInstanceOf(Error); // A's client saw the connection drop

    // B's poller finds the lease stale, takes the run over and finishes it.
    const done = await until(
      () => getRun(b, runId),
      (r) => r.status === 'completed',
      LEASE_MS + 15_000,
    );
    const takeoverMs = Date.now() - killedAt;
    expect(done.output).toBe('记好了 2 笔');
    expect(done.steps.map((s: any) => s.toolCalls.map((c: any) => [c.callId, c.status]))).toEqual([
      [[`${runId}.0.0`, 'succeeded']],
      [[`${runId}.1.0`, 'succeeded']],
      [],
    ]);
    // Step 1's call never reached the upstream again; step 2's did, under the same key, and was
    // written once (A's request was abandoned when A died).
    expect(ledger.requestsWith(firstKey)).toBe(1);
    expect(ledger.requestsWith(slowKey!)).toBe(2);
    expect(ledger.stats.written.filter((w) => w.key === slowKey)).toHaveLength(1);
    expect(ledger.stats.abandoned).toBeGreaterThanOrEqual(1);
    // The model was asked each step once: B started from the stored steps.
    expect(modelAsked(question)).toEqual([0, 1, 2]);

    // In the audit trail the re-run is a call of its own (the trail takes one start per call id),
    // with the run's context; A's attempt stays open until A is found dead and it is closed.
    const interrupted = (await api(b, 'GET', `/v1/audit/calls/${runId}.1.0`, ADMIN)).body.data;
    expect(interrupted.events[0]).toMatchObject({ event: 'started', details: { runId, step: 1 } });
    const rerun = (await api(b, 'GET', `/v1/audit/calls/${runId}.1.0.r2`, ADMIN)).body.data;
    expect(rerun).toMatchObject({ complete: true });
    expect(rerun.events.map((e: any) => [e.event, e.details?.runId, e.details?.step])).toEqual([
      ['started', runId, 1],
      ['finished', runId, 1],
    ]);

    const types = await eventTypes(b, runId);
    expect(types.filter((t) => t === 'run_finished')).toHaveLength(1);
    expect((await auditOfRun(b, runId)).filter((e) => e === 'run_finished')).toHaveLength(1);
    const verify = await api(b, 'GET', `/v1/audit/verify?tenantId=${TENANT}`, ADMIN);
    expect(verify.body.data).toMatchObject({ ok: true });
    expect(takeoverMs).toBeLessThan(LEASE_MS + 10_000);
  }, 60_000);
});
