import { Module } from '@nestjs/common';
import { DemoBackends } from '@toolgate/tool-packs/testing';
import {
  type FakeChatRequest,
  type FakeOpenAI,
  type FakeReply,
  makeConfigDir,
  openRawSql,
  questionOf,
  startFakeOpenAI,
  startTestGateway,
  type TestGateway,
} from '@toolgate/testing';
import { defineToolContract, ToolkitModule } from '@toolgate/toolkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { abortProbe, TestToolsModule } from './test-tools.js';

/** Only a top-level agent may use it (listed). */
const wipeCache = defineToolContract({
  name: 'wipe_cache',
  description: 'Wipes the shared cache (test tool, top-level agents only).',
  inputSchema: z.object({}),
  risk: { level: 'L0' },
  availableInSubagents: false,
}).implement(() => ({ wiped: true }));

/** Only a top-level agent may use it (deferred: reachable with tool_search / tool_call). */
const vaultLookup = defineToolContract({
  name: 'vault_lookup',
  description: 'Looks a secret up in the vault (test tool, top-level agents only).',
  inputSchema: z.object({}),
  risk: { level: 'L0' },
  deferred: true,
  availableInSubagents: false,
}).implement(() => ({ secret: 'hunter2' }));

/** A deferred tool any agent may use: it gives sub-agents the tool_search / tool_call meta-tools. */
const dustyArchive = defineToolContract({
  name: 'dusty_archive',
  description: 'Searches the dusty archive (test tool).',
  inputSchema: z.object({}),
  risk: { level: 'L0' },
  deferred: true,
}).implement(() => ({ found: [] }));

/** Its call ends the turn: ignored in a sub-agent's run. */
const finalReply = defineToolContract({
  name: 'final_reply',
  description: 'Sends the final reply (test tool).',
  inputSchema: z.object({ text: z.string().min(1) }),
  risk: { level: 'L0' },
  endsTurn: true,
  toModelOutput: (output: { sent: string }) => ({ type: 'text', value: output.sent }),
}).implement(({ text }) => ({ sent: text }));

@Module({
  imports: [
    ToolkitModule.forFeature([wipeCache, vaultLookup, dustyArchive, finalReply], 'SubAgentTestTools'),
  ],
})
class SubAgentTestToolsModule {}

const SUBLAB_YAML = `
id: sublab
name: Sub-agent lab
connectors:
  ops_api:
    baseUrl: \${DEMO_OPS_URL}
    token: demo-ops-token
agentTypes:
  lead:
    description: Lead agent that delegates
    instructions: You lead; delegate the work.
    subAgents: [researcher, fixer, waiter]
    tools:
      - get_service_status
      - vault_lookup
  researcher:
    description: Researches service health
    tools:
      - get_service_status
      - wipe_cache
      - vault_lookup
      - dusty_archive
      - final_reply
  fixer:
    instructions: |-
      Restarts services after approval.
      Say why.
    tools:
      - restart_service
  waiter:
    description: Waits
    tools:
      - await_abort
`;

const RESTART = { service: 'payment-api', reason: 'memory leak after the rollout' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const toolResults = (body: FakeChatRequest) =>
  (body.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
const toolNames = (body: FakeChatRequest) =>
  (body.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
const call = (name: string, args: unknown, id = `c_${name}`) => ({
  id,
  name,
  arguments: JSON.stringify(args),
});

/**
 * Sub-agents (seed 000) on a real OpenAI-compatible wire: a `delegate_to_<agentType>` call starts
 * a child run linked to its parent, which the parent waits for — through approvals, cancels and
 * resumptions — without the tools only top-level agents may use.
 */
describe('agent runs with sub-agents', () => {
  let fake: FakeOpenAI;
  let gw: TestGateway;
  let agent: string;
  let approver: string;
  let otherTenant: string;
  let auditor: string;
  let restarts: () => number;
  /** Replies by question: each gets the request and the tool results so far. */
  const scripts = new Map<string, (body: FakeChatRequest, results: string[]) => FakeReply>();
  const requestsFor = (question: string) => fake.requests.filter((r) => questionOf(r) === question);

  beforeAll(async () => {
    fake = await startFakeOpenAI(
      (body) => scripts.get(questionOf(body))?.(body, toolResults(body)) ?? { text: 'ok' },
    );
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir(
          { sublab: SUBLAB_YAML },
          'runs:\n  leaseMs: 3000\n  pollMs: 200\n',
        ),
        TOOLGATE_MODEL_BASE_URL: fake.url,
        TOOLGATE_MODEL_API_KEY: 'sk-test',
        TOOLGATE_MODEL: 'default/test-model',
      },
      imports: [TestToolsModule, SubAgentTestToolsModule],
    });
    agent = await gw.createKey('agent', 'sublab');
    approver = await gw.createKey('approver', 'sublab');
    auditor = await gw.createKey('auditor', 'sublab');
    otherTenant = await gw.createKey('agent', 'acme');
    const ops = gw.app.get(DemoBackends).ops;
    restarts = () => ops.stats.restarts;
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const start = (input: string, agentType = 'lead') =>
    gw.api('POST', `/v1/agents/${agentType}/runs`, { key: agent, body: { input } });
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
  const childOf = (parent: any, step = 0, index = 0) => `${parent.runId}_${step}_${index}`;

  it('delegates to a sub-agent: the child runs on its own session, the parent answers from its output', async () => {
    scripts.set('How is payment-api?', (_body, results) =>
      results.length
        ? { text: `lead: ${results[0]}`, usage: { inputTokens: 30, outputTokens: 5 } }
        : {
            toolCalls: [call('delegate_to_researcher', { task: 'Check payment-api' })],
            usage: { inputTokens: 20, outputTokens: 4 },
          },
    );
    scripts.set('Check payment-api', (_body, results) =>
      results.length
        ? { text: 'payment-api is healthy', usage: { inputTokens: 11, outputTokens: 3 } }
        : {
            toolCalls: [call('get_service_status', { service: 'payment-api' })],
            usage: { inputTokens: 10, outputTokens: 2 },
          },
    );
    const res = await start('How is payment-api?');
    expect(res.status).toBe(200);
    const parent = res.body.data;
    const childId = childOf(parent);
    expect(parent).toMatchObject({
      status: 'completed',
      parentRunId: null,
      output: 'lead: payment-api is healthy',
      // The child's tokens count towards the parent's usage.
      usage: { inputTokens: 20 + 30 + 10 + 11, outputTokens: 4 + 5 + 2 + 3 },
    });
    expect(parent.steps[0].toolCalls[0]).toMatchObject({
      callId: `${parent.runId}.0.0`,
      tool: 'delegate_to_researcher',
      status: 'succeeded',
      result: { status: 'ok', data: { runId: childId, output: 'payment-api is healthy' } },
      subRunId: childId,
    });

    // The parent's model saw one tool per sub-agent, described by what the sub-agent is for.
    const parentTools = requestsFor('How is payment-api?')[0]!.tools as any[];
    expect(toolNames(requestsFor('How is payment-api?')[0]!)).toEqual([
      'get_service_status',
      'tool_search',
      'tool_call',
      'delegate_to_researcher',
      'delegate_to_fixer',
      'delegate_to_waiter',
    ]);
    const fn = (name: string) => parentTools.find((t) => t.function.name === name).function;
    expect(fn('delegate_to_researcher').description).toContain('Researches service health');
    expect(fn('delegate_to_fixer').description).toContain('Restarts services after approval');
    expect(fn('delegate_to_researcher').parameters).toMatchObject({ required: ['task'] });

    // The child: its own run and session, linked to the parent, readable by the same key.
    const child = await getRun(childId);
    expect(child).toMatchObject({
      runId: childId,
      parentRunId: parent.runId,
      agentType: 'researcher',
      status: 'completed',
      input: 'Check payment-api',
      output: 'payment-api is healthy',
      usage: { inputTokens: 21, outputTokens: 5 },
    });
    expect(child.sessionId).not.toBe(parent.sessionId);
    expect(child.steps[0].toolCalls[0]).toMatchObject({
      callId: `${childId}.0.0`,
      tool: 'get_service_status',
      status: 'succeeded',
    });
    expect((await getRun(childId, auditor)).runId).toBe(childId);
    expect((await gw.api('GET', `/v1/runs/${childId}`, { key: otherTenant })).status).toBe(404);
    expect((await gw.api('GET', `/v1/runs/${childId}/events`, { key: otherTenant })).status).toBe(404);

    // The streams: the parent shows the delegation, the child has its own run.
    const parentEvents = await events(parent.runId);
    const delegation = parentEvents.filter((e) => e.data.callId === `${parent.runId}.0.0`);
    expect(delegation.map((e) => e.type)).toEqual([
      'tool_call_requested',
      'tool_partial',
      'tool_partial',
      'tool_result',
    ]);
    expect(delegation[1]!.data).toMatchObject({ runId: childId, phase: 'start' });
    expect(String(delegation[1]!.data.label)).toContain(childId);
    const childEvents = await events(childId);
    expect(childEvents[0]).toMatchObject({
      type: 'run_started',
      data: { agentType: 'researcher', parentRunId: parent.runId },
    });
    expect(childEvents.at(-1)).toMatchObject({ type: 'run_finished', data: { status: 'completed' } });

    // The audit trail: the child's start and end name its parent; its calls carry its run id.
    const trail = (await gw.api('GET', '/v1/audit/events?tenantId=sublab&limit=500')).body.data
      .items as any[];
    const ofChild = trail.filter((e) => e.details?.runId === childId);
    expect(ofChild.find((e) => e.event === 'run_started').details).toMatchObject({
      parentRunId: parent.runId,
    });
    expect(ofChild.find((e) => e.event === 'run_finished').details).toMatchObject({
      parentRunId: parent.runId,
      outcome: 'completed',
    });
    expect(
      trail.find((e) => e.event === 'run_finished' && e.details?.runId === parent.runId).details,
    ).not.toHaveProperty('parentRunId');
  });

  it('keeps availableInSubagents:false tools from a sub-agent, by list, search and name; endsTurn is ignored there', async () => {
    // Run directly, the researcher has every tool it is bound to.
    scripts.set('Researcher alone', () => ({ text: 'alone' }));
    expect((await start('Researcher alone', 'researcher')).body.data.status).toBe('completed');
    expect(toolNames(requestsFor('Researcher alone')[0]!)).toEqual([
      'get_service_status',
      'wipe_cache',
      'final_reply',
      'tool_search',
      'tool_call',
    ]);

    scripts.set('Dig deeper', (_body, results) =>
      results.length
        ? { text: `lead: ${results[0]}` }
        : { toolCalls: [call('delegate_to_researcher', { task: 'Try the vault' })] },
    );
    scripts.set('Try the vault', (_body, results) => {
      switch (results.length) {
        case 0:
          return {
            toolCalls: [
              call('tool_search', { query: 'vault' }, 'a'),
              call('tool_call', { name: 'vault_lookup', input: {} }, 'b'),
              call('vault_lookup', {}, 'c'),
              call('wipe_cache', {}, 'd'),
            ],
          };
        case 4:
          // A call that ends the turn: in a sub-agent the model is asked again all the same.
          return { toolCalls: [call('final_reply', { text: 'nothing found' })] };
        default:
          return {
            text: [results[0], ...results.slice(1, 4).map((r) => JSON.parse(r).code), results[4]].join('|'),
          };
      }
    });
    const parent = (await start('Dig deeper')).body.data;
    expect(parent.status).toBe('completed');
    const child = await getRun(childOf(parent));
    expect(child.output).toBe('[]|TOOL_NOT_FOUND|TOOL_NOT_FOUND|TOOL_NOT_FOUND|nothing found');
    expect(parent.output).toBe(`lead: ${child.output}`);
    const childRequests = requestsFor('Try the vault');
    expect(childRequests).toHaveLength(3);
    for (const r of childRequests)
      expect(toolNames(r)).toEqual(['get_service_status', 'final_reply', 'tool_search', 'tool_call']);
    expect(child.steps[1].toolCalls[0]).toMatchObject({ tool: 'final_reply', status: 'succeeded' });
  });

  it('parks the parent while its child waits for an approval; the approval resumes both, the child starts once', async () => {
    scripts.set('Fix payment-api', (_body, results) =>
      results.length
        ? { text: `lead: ${results[0]}` }
        : { toolCalls: [call('delegate_to_fixer', { task: 'Restart payment-api' })] },
    );
    scripts.set('Restart payment-api', (_body, results) =>
      results.length
        ? { text: results[0]!.includes('payment-api') ? 'restarted: ok' : `restarted: ${results[0]}` }
        : { toolCalls: [call('restart_service', RESTART)] },
    );
    const before = restarts();
    const parked = await start('Fix payment-api');
    expect(parked.status).toBe(202);
    const { runId } = parked.body;
    const childId = `${runId}_0_0`;
    // The approval to decide is the child's, listed on the parent.
    expect(parked.body.details.approvals).toEqual([
      { approvalId: expect.any(String), callId: `${childId}.0.0`, tool: 'restart_service' },
    ]);
    const waiting = await getRun(runId);
    expect(waiting.status).toBe('awaiting_approval');
    expect(waiting.steps[0].toolCalls[0]).toMatchObject({
      tool: 'delegate_to_fixer',
      status: 'pending_approval',
      approvalId: null,
    });
    expect((await getRun(childId)).status).toBe('awaiting_approval');

    const approved = await gw.api('POST', `/v1/approvals/${parked.body.approvalId}/approve`, {
      key: approver,
      body: {},
    });
    expect(approved.status).toBe(200);
    const done = await until(
      () => getRun(runId),
      (r) => r.status === 'completed',
    );
    expect(done.output).toBe('lead: restarted: ok');
    expect(done.steps[0].toolCalls[0]).toMatchObject({
      status: 'succeeded',
      result: { data: { runId: childId, output: 'restarted: ok' } },
    });
    expect((await getRun(childId)).status).toBe('completed');
    expect(restarts()).toBe(before + 1);
    // The child started once: one first turn, one run of the fixer under this parent.
    expect(requestsFor('Restart payment-api').filter((r) => !toolResults(r).length)).toHaveLength(1);
    expect(requestsFor('Fix payment-api')).toHaveLength(2);
    const fixers = (await gw.api('GET', '/v1/runs?agentType=fixer', { key: agent })).body.data.items;
    expect(fixers.filter((r: any) => r.parentRunId === runId).map((r: any) => r.runId)).toEqual([childId]);
  });

  it('a parked run cancelled: its withdrawn call reads denied; cancelling a parent cancels its child', async () => {
    // A run of its own, parked on its L3 call.
    scripts.set('Restart alone', () => ({ toolCalls: [call('restart_service', RESTART)] }));
    const alone = await start('Restart alone', 'fixer');
    expect(alone.status).toBe(202);
    const cancelledAlone = (await gw.api('POST', `/v1/runs/${alone.body.runId}/cancel`, { key: agent })).body
      .data;
    expect(cancelledAlone.status).toBe('cancelled');
    expect(cancelledAlone.steps[0].toolCalls[0]).toMatchObject({
      status: 'denied',
      result: { code: 'APPROVAL_DENIED' },
    });
    expect(cancelledAlone.pendingApprovals).toEqual([]);

    // A parent parked on its child's approval.
    scripts.set('Fix it, then never mind', () => ({
      toolCalls: [call('delegate_to_fixer', { task: 'Restart it, then never mind' })],
    }));
    scripts.set('Restart it, then never mind', () => ({ toolCalls: [call('restart_service', RESTART)] }));
    const before = restarts();
    const parked = await start('Fix it, then never mind');
    expect(parked.status).toBe(202);
    const { runId } = parked.body;
    const childId = `${runId}_0_0`;
    const cancelRes = await gw.api('POST', `/v1/runs/${runId}/cancel`, { key: agent });
    expect(cancelRes.status, cancelRes.text).toBe(200);
    const cancelled = cancelRes.body.data;
    expect(cancelled).toMatchObject({ status: 'cancelled', pendingApprovals: [] });
    expect(cancelled.steps[0].toolCalls[0]).toMatchObject({
      status: 'interrupted',
      result: { code: 'RUN_CANCELLED' },
    });
    const child = await getRun(childId);
    expect(child).toMatchObject({ status: 'cancelled', error: { code: 'RUN_CANCELLED' } });
    expect(child.steps[0].toolCalls[0]).toMatchObject({
      status: 'denied',
      result: { code: 'APPROVAL_DENIED' },
    });
    const late = await gw.api('POST', `/v1/approvals/${parked.body.approvalId}/approve`, {
      key: approver,
      body: {},
    });
    expect(late.status).toBe(409);
    // Time must pass here: a window in which a wrongly run restart would have reached the upstream.
    await sleep(300);
    expect(restarts()).toBe(before);
  });

  it("cancelling a parent whose child is running aborts the child's running tool", async () => {
    scripts.set('Wait for me', () => ({ toolCalls: [call('delegate_to_waiter', { task: 'Wait here' })] }));
    scripts.set('Wait here', () => ({ toolCalls: [call('await_abort', {})] }));
    const before = { started: abortProbe.awaitAbortStarted, aborted: abortProbe.awaitAbortAborted };
    const pending = start('Wait for me');
    await until(
      async () => abortProbe.awaitAbortStarted,
      (n) => n > before.started,
    );
    const list = await gw.api('GET', '/v1/runs?agentType=lead&status=running', { key: agent });
    const runId = list.body.data.items[0].runId as string;
    const childId = `${runId}_0_0`;
    expect((await getRun(childId)).status).toBe('running');
    const cancelled = await gw.api('POST', `/v1/runs/${runId}/cancel`, { key: agent });
    expect(cancelled.body.data.status).toBe('cancelled');
    expect(abortProbe.awaitAbortAborted).toBe(before.aborted + 1);
    expect((await pending).body.data.status).toBe('cancelled');
    const child = await getRun(childId);
    expect(child.status).toBe('cancelled');
    expect(child.steps[0].toolCalls[0]).toMatchObject({ tool: 'await_abort', status: 'interrupted' });
  });

  it('a parent taken over by another drive finds the child it started and waits for it; the child runs once', async () => {
    scripts.set('Hold on', (_body, results) =>
      results.length
        ? { text: `lead: ${results[0]}` }
        : { toolCalls: [call('delegate_to_waiter', { task: 'Hold here' })] },
    );
    scripts.set('Hold here', (_body, results) =>
      results.length ? { text: 'held' } : { toolCalls: [call('await_abort', {})] },
    );
    const before = abortProbe.awaitAbortStarted;
    const first = start('Hold on');
    await until(
      async () => abortProbe.awaitAbortStarted,
      (n) => n > before,
    );
    const runId = (await gw.api('GET', '/v1/runs?agentType=lead&status=running', { key: agent })).body.data
      .items[0].runId as string;
    const childId = `${runId}_0_0`;
    // The parent's gateway "died": its lease is foreign and stale. The child's drive goes on.
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
    expect((await first).body.data.status).toBe('running');
    // The poller takes the parent over; it finds its child (await_abort answers after 5 s).
    const done = await until(
      () => getRun(runId),
      (r) => r.status === 'completed',
      15_000,
    );
    expect(done.output).toBe('lead: held');
    expect(done.steps[0].toolCalls[0]).toMatchObject({
      status: 'succeeded',
      result: { data: { runId: childId, output: 'held' } },
    });
    expect(abortProbe.awaitAbortStarted).toBe(before + 1);
    expect(requestsFor('Hold here')).toHaveLength(2);
    const waiters = (await gw.api('GET', '/v1/runs?agentType=waiter', { key: agent })).body.data.items;
    expect(waiters.filter((r: any) => r.parentRunId === runId)).toHaveLength(1);
  }, 25_000);

  /** A run's stored events, read to the end. */
  async function events(runId: string) {
    const res = await fetch(`${gw.url}/v1/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${agent}`, accept: 'text/event-stream' },
    });
    const text = await res.text();
    return [...text.matchAll(/^data: (.*)$/gm)].map(
      (m) => JSON.parse(m[1]!) as { type: string; data: Record<string, unknown> },
    );
  }
});
