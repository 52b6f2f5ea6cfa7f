import type { ModelMessage, ModelTool, ModelToolCall, ModelTurn } from '@toolgate/models';
import { DemoBackends } from '@toolgate/tool-packs/testing';
import {
  makeConfigDir,
  openRawSql,
  startFakeOpenAI,
  startTestGateway,
  waitFor,
  type FakeChatRequest,
  type FakeOpenAI,
  type FakeReply,
  type TestGateway,
} from '@toolgate/testing';
import { Module } from '@nestjs/common';
import { defineToolContract, ToolkitModule } from '@toolgate/toolkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataSource } from 'typeorm';
import { AsyncLocalStorage } from 'node:async_hooks';
import { RunLoop } from '../../libs/runs/src/loop/run-loop.js';
import { z } from 'zod';
import { abortProbe, TestToolsModule } from './test-tools.js';

/** A tool whose call ends the agent's turn: its output is the run's answer. */
const replyToUser = defineToolContract({
  name: 'reply_to_user',
  description: 'Sends the final reply to the user (test tool).',
  inputSchema: z.object({ text: z.string().min(1) }),
  risk: { level: 'L0' },
  endsTurn: true,
  toModelOutput: (output: { sent: string }) => ({ type: 'text', value: output.sent }),
}).implement(({ text }) => ({ sent: text }));

/** A deferred tool: not in the model's list, found with tool_search. */
const searchArchive = defineToolContract({
  name: 'search_archive',
  description: 'Searches the maintenance archive for past incidents (test tool).',
  inputSchema: z.object({ q: z.string().min(1) }),
  risk: { level: 'L0' },
  deferred: true,
}).implement(({ q }) => ({ incidents: [`${q}: 2025-03 memory leak`] }));

@Module({ imports: [ToolkitModule.forFeature([replyToUser, searchArchive], 'RunTestToolsModule')] })
class RunTestToolsModule {}

/** A tenant with tight run limits. */
const RUNLAB_YAML = `
id: runlab
name: Run lab
audit:
  runText: true
connectors:
  ops_api:
    baseUrl: \${DEMO_OPS_URL}
    token: demo-ops-token
agentTypes:
  hasty:
    deadlineMs: 1000
    tools:
      - get_service_status
  patient:
    tools:
      - await_abort
  patient2:
    tools:
      - get_service_status
      - await_abort
  replier:
    tools:
      - reply_to_user
      - get_service_status
  archivist:
    tools:
      - get_service_status
      - search_archive
  thrifty:
    tokenBudget: 20
    tools:
      - get_service_status
  counted:
    tools:
      - noop
`;

const RESTART = { service: 'payment-api', reason: '滚动发布后内存泄漏，需要重启' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A model turn that asks for tool calls. */
const calls = (...list: [name: string, args: unknown][]): ModelTurn => ({
  text: null,
  toolCalls: list.map(([name, args], i): ModelToolCall => ({
    id: `call_${i}`,
    name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
  })),
  usage: { inputTokens: 10, outputTokens: 5 },
  finishReason: 'tool_calls',
});
const answer = (text: string): ModelTurn => ({
  text,
  toolCalls: [],
  usage: { inputTokens: 20, outputTokens: 8 },
  finishReason: 'stop',
});

/** A model request as the tests read it: the wire body in the models lib's terms, and its hang-up signal. */
interface SeenRequest {
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly ModelTool[];
  /** Fires when the gateway hangs up (the run was stopped, or its deadline passed). */
  readonly signal: AbortSignal;
}

/** The wire request (OpenAI chat completions) in the models lib's terms. */
function seen(body: FakeChatRequest, signal: AbortSignal): SeenRequest {
  const messages = (body.messages ?? []).map((m): ModelMessage => {
    const content = m.content as string | null;
    if (m.role === 'tool')
      return { role: 'tool', toolCallId: String(m.tool_call_id), content: content ?? '' };
    if (m.role === 'assistant') return { role: 'assistant', content };
    return { role: m.role as 'system' | 'user', content: content ?? '' };
  });
  const tools = (body.tools ?? []).map((t) => (t as { function: ModelTool }).function);
  return { messages, tools, signal };
}

const wire = (turn: ModelTurn): FakeReply => ({
  text: turn.text ?? undefined,
  toolCalls: turn.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
  usage: turn.usage,
  finishReason: turn.finishReason,
});

/** An HTTP error the model server answers instead of a turn. */
type Failure = { readonly status: number; readonly errorMessage: string };
type Turn = (req: SeenRequest) => ModelTurn | Failure | Promise<ModelTurn | Failure>;

/**
 * A scripted model behind a real OpenAI-compatible server on loopback (the gateway's own client
 * talks to it over HTTP): each run's question picks a script; each turn takes the next entry.
 */
class ScriptedModel {
  readonly scripts = new Map<string, Turn[]>();
  readonly requests: SeenRequest[] = [];

  async reply(body: FakeChatRequest, hungUp: AbortSignal): Promise<FakeReply> {
    const req = seen(body, hungUp);
    this.requests.push(req);
    const question = [...req.messages].reverse().find((m) => m.role === 'user')!.content;
    const turn = this.scripts.get(question ?? '')?.shift();
    const result = turn ? await turn(req) : answer('done');
    return 'status' in result ? result : wire(result);
  }
}

/** The reads a drive's write carries after its COMMIT (the checks of its next step). */
const CARRIED_READS = /^SELECT (tokens FROM tenant_token_days|COUNT\(1\) AS n FROM (api_keys|auth_sessions))/;

const toolMessages = (req: SeenRequest) =>
  req.messages.filter((m): m is Extract<ModelMessage, { role: 'tool' }> => m.role === 'tool');

describe('agent runs', () => {
  let gw: TestGateway;
  let agent: string;
  let approver: string;
  let auditor: string;
  let globexAgent: string;
  let runlabAgent: string;
  let restarts: () => number;
  const model = new ScriptedModel();
  let fake: FakeOpenAI;

  beforeAll(async () => {
    fake = await startFakeOpenAI((body, _index, hungUp) => model.reply(body, hungUp));
    gw = await startTestGateway({
      // Short leases and polls: the takeover test waits for them.
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({ runlab: RUNLAB_YAML }, 'runs:\n  leaseMs: 600\n  pollMs: 200\n'),
        TOOLGATE_MODEL_BASE_URL: fake.url,
        TOOLGATE_MODEL_API_KEY: 'sk-test',
        TOOLGATE_MODEL: 'default/scripted',
      },
      imports: [TestToolsModule, RunTestToolsModule],
    });
    agent = await gw.createKey('agent', 'acme');
    approver = await gw.createKey('approver', 'acme');
    auditor = await gw.createKey('auditor', 'acme');
    globexAgent = await gw.createKey('agent', 'globex');
    runlabAgent = await gw.createKey('agent', 'runlab');
    const ops = gw.app.get(DemoBackends).ops;
    restarts = () => ops.stats.restarts;
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const start = (input: string, agentType = 'ops_assistant', key = agent, extra: object = {}) =>
    gw.api('POST', `/v1/agents/${agentType}/runs`, { key, body: { input, ...extra } });
  const script = (input: string, ...turns: Turn[]) => model.scripts.set(input, turns);
  const getRun = async (runId: string, key = agent) =>
    (await gw.api('GET', `/v1/runs/${runId}`, { key })).body.data;
  const until = async <T>(f: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = await f();
      if (ok(v) || Date.now() > end) return v;
      await sleep(100);
    }
  };

  it('completes a run: the model calls a tool, reads its model output, answers', async () => {
    script(
      'payment-api 状态如何？',
      () => calls(['get_service_status', { service: 'payment-api' }]),
      (req) => answer(`状态：${toolMessages(req)[0]!.content.slice(0, 40)}`),
    );
    const res = await start('payment-api 状态如何？');
    expect(res.status).toBe(200);
    const run = res.body.data;
    expect(run).toMatchObject({
      status: 'completed',
      agentType: 'ops_assistant',
      tenantId: 'acme',
      usage: { inputTokens: 30, outputTokens: 13, totalTokens: 43 },
      error: null,
    });
    expect(run.output).toMatch(/^状态：/);
    expect(run.steps).toHaveLength(2);
    expect(run.steps[0].toolCalls[0]).toMatchObject({
      callId: `${run.runId}.0.0`,
      tool: 'get_service_status',
      status: 'succeeded',
      result: { status: 'ok' },
    });
    expect((await getRun(run.runId)).status).toBe('completed');
    // A new run in the same session sees the conversation so far.
    script('再说一遍', (req) => answer(`history ${req.messages.filter((m) => m.role === 'user').length}`));
    const next = await start('再说一遍', 'ops_assistant', agent, { sessionId: run.sessionId });
    expect(next.body.data.output).toBe('history 2');
    const session = await gw.api('GET', `/v1/sessions/${run.sessionId}/runs`, { key: agent });
    expect(session.body.data.runs.map((r: any) => r.runId)).toEqual([run.runId, next.body.data.runId]);
  });

  it("keeps sessions to the key that started them: another key's id is a new session or 404", async () => {
    script('秘密问题', () => answer('秘密答案'));
    const first = (await start('秘密问题')).body.data;
    // Another agent key of the same tenant cannot continue (and so read through the model) the session.
    const colleague = await gw.createKey('agent', 'acme');
    const hijack = await start('上一轮说了什么？', 'ops_assistant', colleague, {
      sessionId: first.sessionId,
    });
    expect(hijack.status).toBe(404);
    expect(hijack.body.code).toBe('NOT_FOUND');
    expect((await gw.api('GET', `/v1/sessions/${first.sessionId}/runs`, { key: colleague })).status).toBe(
      404,
    );
    // Nor with another agent type, by the same key.
    const other = await start('上一轮说了什么？', 'contract_review', agent, { sessionId: first.sessionId });
    expect(other.status).toBe(404);
    // Another tenant naming the same id starts its own session and sees none of acme's conversation.
    script('上一轮说了什么？', (req) =>
      answer(`users ${req.messages.filter((m) => m.role === 'user').length}`),
    );
    const globex = await start('上一轮说了什么？', 'ops_assistant', await gw.createKey('agent', 'globex'), {
      sessionId: first.sessionId,
    });
    expect(globex.status).toBe(200);
    expect(globex.body.data).toMatchObject({
      tenantId: 'globex',
      sessionId: first.sessionId,
      output: 'users 1',
    });
    const acmeSession = await gw.api('GET', `/v1/sessions/${first.sessionId}/runs`, { key: agent });
    expect(acmeSession.body.data.runs.map((r: any) => r.runId)).toEqual([first.runId]);
  });

  it('keeps prompts and answers out of the trail unless the tenant turns run text on, then redacts them', async () => {
    const trailOf = async (tenantId: string, runId: string) =>
      ((await gw.api('GET', `/v1/audit/events?tenantId=${tenantId}&limit=500`)).body.data.items as any[])
        .filter((e) => e.details?.runId === runId && e.event.startsWith('run_'))
        .reverse(); // oldest first
    script('问 li.lei@acme.cn 的工单', () => answer('已回复 li.lei@acme.cn'));
    const quiet = (await start('问 li.lei@acme.cn 的工单')).body.data;
    const acmeTrail = await trailOf('acme', quiet.runId);
    expect(acmeTrail.map((e) => [e.event, e.input])).toEqual([
      ['run_started', null],
      ['run_finished', null],
    ]);
    expect(JSON.stringify(acmeTrail)).not.toContain('li.lei');
    // runlab's file says audit.runText: true — the text is there, redacted like tool inputs.
    script('runlab li.lei@acme.cn', () => answer('已回复 li.lei@acme.cn'));
    const told = (await start('runlab li.lei@acme.cn', 'replier', runlabAgent)).body.data;
    expect(told.status).toBe('completed');
    const labTrail = await until(
      () => trailOf('runlab', told.runId),
      (t) => t.length === 2,
    );
    const [started, finished] = labTrail;
    expect(started.input.question).toMatch(/^runlab /);
    expect(finished.input).toMatchObject({ modelText: [expect.any(String)], answer: expect.any(String) });
    expect(JSON.stringify(labTrail)).not.toContain('li.lei@acme.cn');
  });

  it('gives malformed arguments and unknown tools back to the model as envelopes, and goes on', async () => {
    script(
      'bad args',
      () => calls(['get_service_status', '{"service": "payment-api"'], ['drop_database', {}]),
      (req) =>
        answer(
          toolMessages(req)
            .map((m) => JSON.parse(m.content).code)
            .join(','),
        ),
    );
    const run = (await start('bad args')).body.data;
    expect(run.status).toBe('completed');
    expect(run.output).toBe('INVALID_INPUT,TOOL_NOT_FOUND');
    expect(run.steps[0].toolCalls.map((c: any) => c.status)).toEqual(['failed', 'failed']);
  });

  it('fails with STEP_LIMIT when the model never stops calling tools', async () => {
    const loop = () => calls(['get_service_status', { service: 'payment-api' }]);
    script('forever', ...Array.from({ length: 20 }, () => loop));
    const run = (await start('forever')).body.data;
    expect(run).toMatchObject({ status: 'failed', error: { code: 'STEP_LIMIT' } });
    expect(run.steps).toHaveLength(6); // ops_assistant's maxSteps in the demo tenant file
  });

  it('fails with DEADLINE_EXCEEDED when the run outlives its deadline (the model call is aborted)', async () => {
    script(
      'take your time',
      (req) =>
        new Promise<ModelTurn>((resolve, reject) => {
          const timer = setTimeout(() => resolve(answer('too late')), 30_000);
          req.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new Error('aborted'));
          });
        }),
    );
    const started = Date.now();
    const run = (await start('take your time', 'hasty', runlabAgent)).body.data;
    expect(run).toMatchObject({ status: 'failed', error: { code: 'DEADLINE_EXCEEDED' } });
    // The 1 s deadline ended it, not the model's answer 30 s later (a bound far from machine speed).
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('fails with BUDGET_EXCEEDED once the run has spent its tokens', async () => {
    const loop = () => calls(['get_service_status', { service: 'payment-api' }]);
    script('spend', loop, loop, loop, loop);
    const run = (await start('spend', 'thrifty', runlabAgent)).body.data;
    expect(run).toMatchObject({ status: 'failed', error: { code: 'BUDGET_EXCEEDED' } });
    expect(run.steps).toHaveLength(2);
    expect(run.usage.totalTokens).toBe(30);
  });

  it("cancels a running run: the running tool's AbortSignal fires", async () => {
    script('wait', () => calls(['await_abort', {}]));
    const before = { started: abortProbe.awaitAbortStarted, aborted: abortProbe.awaitAbortAborted };
    const pending = start('wait', 'patient', runlabAgent);
    await until(
      async () => abortProbe.awaitAbortStarted,
      (n) => n > before.started,
    );
    const list = await gw.api('GET', '/v1/runs?agentType=patient&status=running', { key: runlabAgent });
    const runId = list.body.data.items[0].runId;
    const cancelled = await gw.api('POST', `/v1/runs/${runId}/cancel`, { key: runlabAgent });
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', error: { code: 'RUN_CANCELLED' } });
    expect(abortProbe.awaitAbortAborted).toBe(before.aborted + 1);
    expect((await pending).body.data.status).toBe('cancelled');
  });

  it('takes over a run whose lease went stale: the interrupted call re-runs under the same call id, finished ones never', async () => {
    script(
      'take over',
      () => calls(['get_service_status', { service: 'payment-api' }]),
      () => calls(['await_abort', {}]),
      (req) => answer(`after ${toolMessages(req).length} results`),
    );
    const before = abortProbe.awaitAbortStarted;
    const requestsBefore = model.requests.length;
    const first = start('take over', 'patient2', runlabAgent);
    await until(
      async () => abortProbe.awaitAbortStarted,
      (n) => n > before,
    );
    const runId = (await gw.api('GET', '/v1/runs?agentType=patient2&status=running', { key: runlabAgent }))
      .body.data.items[0].runId;
    // Another gateway "held" the lease and died: its owner name is foreign and its time is up.
    const sql = await openRawSql(gw.db);
    try {
      await sql.query(`UPDATE agent_runs SET lease_owner = ?, lease_until = ? WHERE run_id = ?`, [
        'dead-gateway',
        '2020-01-01 00:00:00.000',
        runId,
      ]);
    } finally {
      await sql.close();
    }
    // This gateway's drive notices at its next renewal and stops (the tool is aborted) ...
    expect((await first).body.data.status).toBe('running');
    // ... and its poller takes the stale lease over: the interrupted call runs again, once.
    const done = await until(
      () => getRun(runId, runlabAgent),
      (r) => r.status === 'completed',
      15_000,
    );
    expect(done.output).toBe('after 2 results');
    expect(abortProbe.awaitAbortStarted).toBe(before + 2);
    expect(done.steps.map((s: any) => s.toolCalls.map((c: any) => [c.callId, c.status]))).toEqual([
      [[`${runId}.0.0`, 'succeeded']],
      [[`${runId}.1.0`, 'succeeded']],
      [], // the answer
    ]);
    expect(model.requests.length - requestsBefore).toBe(3);
  }, 20_000);

  it('ends the run on a step whose calls all end the turn, without asking the model again', async () => {
    script('reply', () => calls(['reply_to_user', { text: '已处理完毕' }]));
    const before = model.requests.length;
    const run = (await start('reply', 'replier', runlabAgent)).body.data;
    expect(run).toMatchObject({ status: 'completed', output: '已处理完毕' });
    expect(model.requests.length - before).toBe(1);
    // The model was told so in the tool's description.
    expect(model.requests.at(-1)!.tools.find((t) => t.name === 'reply_to_user')!.description).toContain(
      'ends your turn',
    );

    // A step that also called a tool that does not end the turn goes on.
    script(
      'reply and check',
      () => calls(['reply_to_user', { text: 'x' }], ['get_service_status', { service: 'payment-api' }]),
      () => answer('checked'),
    );
    const mixed = (await start('reply and check', 'replier', runlabAgent)).body.data;
    expect(mixed).toMatchObject({ status: 'completed', output: 'checked' });
  });

  it('finds a deferred tool with tool_search and calls it with tool_call, governed as the real tool', async () => {
    script(
      'history',
      (req) => {
        expect(req.tools.map((t) => t.name)).toEqual(['get_service_status', 'tool_search', 'tool_call']);
        return calls(['tool_search', { query: 'archive' }]);
      },
      (req) => {
        const found = JSON.parse(toolMessages(req)[0]!.content) as { name: string }[];
        expect(found.map((t) => t.name)).toEqual(['search_archive']);
        return calls(['tool_call', { name: 'search_archive', input: { q: 'payment-api' } }]);
      },
      (req) => answer(toolMessages(req)[1]!.content),
    );
    const run = (await start('history', 'archivist', runlabAgent)).body.data;
    expect(run.status).toBe('completed');
    expect(JSON.parse(run.output)).toEqual({ incidents: ['payment-api: 2025-03 memory leak'] });
    // A tool_call of a tool that is not bound is TOOL_NOT_FOUND, as for any call.
    script(
      'sneaky',
      () => calls(['tool_call', { name: 'restart_service', input: {} }]),
      (req) => answer(JSON.parse(toolMessages(req)[0]!.content).code),
    );
    expect((await start('sneaky', 'archivist', runlabAgent)).body.data.output).toBe('TOOL_NOT_FOUND');
  });

  it('fails with MODEL_UNAVAILABLE when the model cannot be reached', async () => {
    // Every attempt fails (the client retries 5xx with backoff before giving up).
    const down = () => ({ status: 500, errorMessage: 'upstream overloaded' });
    script('model down', ...Array.from({ length: 10 }, () => down));
    const run = (await start('model down')).body.data;
    expect(run).toMatchObject({ status: 'failed', error: { code: 'MODEL_UNAVAILABLE' } });
    expect(run.error.error).toContain('answered 500: upstream overloaded');
  });

  it('parks on an L3 call, resumes after approval, and never re-runs the finished call', async () => {
    script(
      '重启 payment-api',
      () => calls(['get_service_status', { service: 'payment-api' }], ['restart_service', RESTART]),
      (req) => answer(`重启结果 ${toolMessages(req).length}`),
    );
    const before = restarts();
    const statusCallsBefore = model.requests.length;
    const parked = await start('重启 payment-api');
    expect(parked.status).toBe(202);
    expect(parked.body).toMatchObject({
      code: 'APPROVAL_PENDING',
      runId: expect.any(String),
      details: { approvals: [{ tool: 'restart_service', approvalId: expect.any(String) }] },
    });
    const { runId } = parked.body;
    const approvalId = parked.body.details.approvals[0].approvalId;
    const waiting = await getRun(runId);
    expect(waiting.status).toBe('awaiting_approval');
    expect(waiting.steps[0].toolCalls[0].status).toBe('succeeded');
    expect(restarts()).toBe(before);

    const decided = await gw.api('POST', `/v1/approvals/${approvalId}/approve`, { key: approver, body: {} });
    expect(decided.status).toBe(200);
    const done = await until(
      () => getRun(runId),
      (r) => r.status === 'completed',
    );
    expect(done.status).toBe('completed');
    expect(done.output).toBe('重启结果 2');
    expect(done.steps[0].toolCalls.map((c: any) => c.status)).toEqual(['succeeded', 'succeeded']);
    expect(restarts()).toBe(before + 1);
    // Two model turns in all: the resumed run did not ask the first turn again.
    expect(model.requests.length - statusCallsBefore).toBe(2);

    // The events: replayable from the start, and after a Last-Event-ID.
    const all = await sse(`/v1/runs/${runId}/events`);
    const types = all.map((e) => e.event);
    expect(types[0]).toBe('run_started');
    expect(types).toContain('approval_requested');
    expect(types).toContain('approval_decided');
    expect(types.at(-1)).toBe('run_finished');
    const rest = await sse(`/v1/runs/${runId}/events`, { 'last-event-id': all[2]!.id });
    expect(rest.map((e) => e.id)).toEqual(all.slice(3).map((e) => e.id));

    // The audit trail: the run's start and end, and its calls with their run and step.
    const trail = (await gw.api('GET', `/v1/audit/events?tenantId=acme&limit=500`)).body.data.items as any[];
    const ofRun = trail.filter((e) => e.details?.runId === runId);
    expect(ofRun.map((e) => e.event)).toEqual(
      expect.arrayContaining(['run_started', 'started', 'approval_requested', 'run_finished']),
    );
    expect(ofRun.find((e) => e.event === 'run_finished').details).toMatchObject({
      outcome: 'completed',
      steps: 2,
      model: expect.any(String),
      usage: { input: 30, output: 13, total: 43 },
    });
    expect(ofRun.find((e) => e.event === 'started' && e.tool === 'restart_service').details).toMatchObject({
      runId,
      step: 0,
    });
  });

  it('resumes a step with two parked calls only when both are decided, each by its own decision', async () => {
    script(
      'restart both',
      () =>
        calls(
          ['restart_service', RESTART],
          ['restart_service', { service: 'search-api', reason: '索引服务无响应，需要重启' }],
        ),
      (req) =>
        answer(
          toolMessages(req)
            .map((m) => (JSON.parse(m.content).code ?? 'ok') as string)
            .join(','),
        ),
    );
    const parked = await start('restart both');
    expect(parked.status).toBe(202);
    const { runId } = parked.body;
    const [first, second] = parked.body.details.approvals as { approvalId: string }[];
    expect(second).toBeDefined();
    await gw.api('POST', `/v1/approvals/${first!.approvalId}/approve`, { key: approver, body: {} });
    // Time must pass here: a window in which a run resumed too early would leave awaiting_approval.
    await sleep(500);
    expect((await getRun(runId)).status).toBe('awaiting_approval');
    await gw.api('POST', `/v1/approvals/${second!.approvalId}/deny`, {
      key: approver,
      body: { comment: 'not this one' },
    });
    const done = await until(
      () => getRun(runId),
      (r) => r.status === 'completed',
    );
    expect(done.output).toBe('ok,APPROVAL_DENIED');
    expect(done.steps[0].toolCalls.map((c: any) => c.status)).toEqual(['succeeded', 'denied']);
  });

  it('gives a denied call back to the model as APPROVAL_DENIED', async () => {
    script(
      'restart please',
      () => calls(['restart_service', RESTART]),
      (req) => answer(JSON.parse(toolMessages(req)[0]!.content).code),
    );
    const parked = await start('restart please');
    const { runId } = parked.body;
    await gw.api('POST', `/v1/approvals/${parked.body.details.approvals[0].approvalId}/deny`, {
      key: approver,
      body: { comment: 'not now' },
    });
    const done = await until(
      () => getRun(runId),
      (r) => r.status === 'completed',
    );
    expect(done.output).toBe('APPROVAL_DENIED');
    expect(done.steps[0].toolCalls[0].status).toBe('denied');
  });

  it('streams a run as SSE on the run request', async () => {
    script(
      'stream me',
      () => calls(['get_service_status', { service: 'payment-api' }]),
      () => answer('streamed'),
    );
    const events = await sse('/v1/agents/ops_assistant/runs', {}, { input: 'stream me' });
    expect(events.map((e) => e.event)).toEqual([
      'run_started',
      'model_started',
      'model_finished',
      'tool_call_requested',
      'tool_partial', // the tool's label, start
      'tool_partial', // and complete
      'tool_result',
      'model_started',
      // The client streams the answer: the text arrives in pieces.
      ...Array.from({ length: 4 }, () => 'text_delta'),
      'model_finished',
      'run_finished',
    ]);
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({
      data: { status: 'completed', output: 'streamed' },
    });
  });

  it('awaits two database round trips per step: the stored turn and the call outcome (ADR 050)', async () => {
    // Every statement the run's drive sends, in order, with the model requests between them.
    const drive = new AsyncLocalStorage<true>();
    const loop = gw.app.get(RunLoop);
    const driveOriginal = loop.drive;
    loop.drive = (...args) => drive.run(true, () => driveOriginal.apply(loop, args));
    const logger = gw.app.get(DataSource).logger;
    const logQuery = logger.logQuery;
    const seen: string[] = [];
    logger.logQuery = (query, parameters, runner) => {
      if (drive.getStore()) seen.push(query.replace(/\s+/g, ' '));
      return logQuery.call(logger, query, parameters, runner);
    };
    const modelAsked = (turn: ModelTurn) => () => (seen.push('== model'), turn);
    script(
      'count the round trips',
      modelAsked(calls(['noop', {}])),
      modelAsked(calls(['noop', {}])),
      modelAsked(answer('counted')),
    );
    try {
      const res = await start('count the round trips', 'counted', runlabAgent);
      expect(res.body.data).toMatchObject({ status: 'completed', output: 'counted' });
    } finally {
      loop.drive = driveOriginal;
      logger.logQuery = logQuery;
    }
    // Round trips: on MariaDB each query is one (a transaction goes as one packet); on SQLite a
    // transaction and the reads it carries count as one. Writes no step waits for (the run's
    // events and the audit trail, group-committed behind the drive) are left out.
    const units: string[][] = [];
    let open: string[] | null = null;
    for (const q of seen) {
      if (open) {
        open.push(q);
        if (q === 'COMMIT') open = null;
      } else if (q === 'BEGIN TRANSACTION') units.push((open = [q]));
      else if (CARRIED_READS.test(q) && units.at(-1)?.includes('COMMIT')) units.at(-1)!.push(q);
      else units.push([q]);
    }
    const steps: string[][] = [[]];
    for (const u of units.map((u) => u.join('; ')))
      if (u === '== model') steps.push([]);
      else if (!/run_events|audit_/.test(u)) steps.at(-1)!.push(u);
    // Before the first turn: nothing (the request that started the run checked key and budget).
    expect(steps[0]).toEqual([]);
    // A step with a call: its stored turn (with the tenant's token count in its transaction and
    // the checks before its calls read after it), then the call's outcome (with the checks before
    // the next turn). The last turn: the turn stored with the run's end.
    for (const step of [steps[1]!, steps[2]!]) {
      expect(step).toHaveLength(2);
      expect(step[0]).toMatch(/INSERT INTO run_steps.*tenant_token_days.*COMMIT.*SELECT tokens.*api_keys/);
      expect(step[1]).toMatch(/UPDATE run_tool_calls.*COMMIT.*SELECT tokens.*api_keys/);
    }
    expect(steps[3]).toHaveLength(1);
    expect(steps[3]![0]).toMatch(/INSERT INTO run_steps.*tenant_token_days/);
  });

  it('cancels a parked run; other tenants get 404; auditors read, approvers do not', async () => {
    script('cancel me', () => calls(['restart_service', RESTART]));
    const parked = await start('cancel me');
    const { runId } = parked.body;
    expect((await gw.api('GET', `/v1/runs/${runId}`, { key: globexAgent })).status).toBe(404);
    expect((await gw.api('POST', `/v1/runs/${runId}/cancel`, { key: globexAgent })).status).toBe(404);
    expect((await gw.api('GET', `/v1/runs/${runId}`, { key: auditor })).status).toBe(200);
    expect((await gw.api('GET', `/v1/runs/${runId}`, { key: approver })).status).toBe(403);
    const before = restarts();
    const cancelled = await gw.api('POST', `/v1/runs/${runId}/cancel`, { key: agent });
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', error: { code: 'RUN_CANCELLED' } });
    // Its approval is withdrawn: approving it now cannot run the restart.
    const late = await gw.api(
      'POST',
      `/v1/approvals/${parked.body.details.approvals[0].approvalId}/approve`,
      {
        key: approver,
        body: {},
      },
    );
    expect(late.status).toBe(409);
    expect(restarts()).toBe(before);
    expect((await gw.api('POST', `/v1/runs/${runId}/cancel`, { key: agent })).body.data.status).toBe(
      'cancelled',
    );
    const list = await gw.api('GET', '/v1/runs?status=cancelled', { key: agent });
    expect(list.body.data.items.map((r: any) => r.runId)).toContain(runId);
    expect((await gw.api('GET', '/v1/runs', { key: globexAgent })).body.data.items).toEqual([]);
    expect((await gw.api('GET', '/v1/runs?tenantId=acme', { key: globexAgent })).status).toBe(403);
    // Platform admins read every tenant's runs, or one tenant's.
    const acme = await gw.api('GET', '/v1/runs?tenantId=acme&limit=200');
    expect(acme.body.data.items.every((r: any) => r.tenantId === 'acme')).toBe(true);
    expect(acme.body.data.items.map((r: any) => r.runId)).toContain(runId);
    // Pages: newest first, the cursor continues where the page ended.
    const page1 = await gw.api('GET', '/v1/runs?limit=2', { key: agent });
    const page2 = await gw.api(
      'GET',
      `/v1/runs?limit=2&cursor=${encodeURIComponent(page1.body.data.nextCursor)}`,
      {
        key: agent,
      },
    );
    const ids = [...page1.body.data.items, ...page2.body.data.items].map((r: any) => r.runId);
    expect(new Set(ids).size).toBe(4);
    expect(page1.body.data.items[0].createdAt >= page2.body.data.items[0].createdAt).toBe(true);
  });

  /** Reads an SSE answer to its end. */
  async function sse(path: string, headers: Record<string, string> = {}, body?: unknown) {
    const res = await fetch(`${gw.url}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: {
        authorization: `Bearer ${agent}`,
        accept: 'text/event-stream',
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    return text
      .split('\n\n')
      .filter((b) => b.includes('event:'))
      .map((block) => {
        const field = (name: string) =>
          block
            .split('\n')
            .find((l) => l.startsWith(`${name}: `))
            ?.slice(name.length + 2) ?? '';
        return { id: field('id'), event: field('event'), data: field('data') };
      });
  }
});

describe('agent runs with the offline demo model', () => {
  let gw: TestGateway;
  let agent: string;
  let approver: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    agent = await gw.createKey('agent', 'acme');
    approver = await gw.createKey('approver', 'acme');
  });
  afterAll(() => gw?.close());

  it('answers a status question from the tool result', async () => {
    const res = await gw.api('POST', '/v1/agents/ops_assistant/runs', {
      key: agent,
      body: { input: 'payment-api 的服务状态怎么样？' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'completed', model: 'demo/demo-planner' });
    expect(res.body.data.steps[0].toolCalls[0]).toMatchObject({
      tool: 'get_service_status',
      status: 'succeeded',
    });
    expect(res.body.data.output).toContain('payment-api');
  });

  it('parks the tour restart, and completes it after approval', async () => {
    const parked = await gw.api('POST', '/v1/agents/ops_assistant/runs', {
      key: agent,
      body: { input: 'payment-api 内存泄漏了，重启一下' },
    });
    expect(parked.status).toBe(202);
    const { runId } = parked.body;
    const approvalId = parked.body.details.approvals[0].approvalId;
    expect(
      (await gw.api('POST', `/v1/approvals/${approvalId}/approve`, { key: approver, body: {} })).status,
    ).toBe(200);
    const run = await waitFor(
      async () => {
        const r = (await gw.api('GET', `/v1/runs/${runId}`, { key: agent })).body.data;
        return r.status !== 'awaiting_approval' && r.status !== 'running' && r;
      },
      { timeoutMs: 10_000, intervalMs: 100, what: 'the approved run to finish' },
    );
    expect(run.status).toBe('completed');
    expect(
      run.steps.flatMap((s: any) => s.toolCalls).find((c: any) => c.tool === 'restart_service'),
    ).toMatchObject({
      status: 'succeeded',
    });
  });
});
