import { DemoBackends } from '@toolgate/tool-packs/testing';
import {
  makeConfigDir,
  questionOf,
  startFakeOpenAI,
  startTestGateway,
  toolResultsOf,
  waitFor,
  type FakeChatRequest,
  type FakeOpenAI,
  type FakeReply,
  type TestGateway,
  TEST_ADMIN_KEY,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestToolsModule } from './test-tools.js';

/**
 * Who sees what of a run (issue 21, items 11 and 12): the run's own key reads it as it is, every
 * other reader redacted like audit inputs; a run whose key is revoked does nothing more.
 */

const EMAIL = 'zhang.san@acme.cn';
const PHONE = '13812345678';
const ID_CARD = '11010519491231002X';
const PLANTED = [EMAIL, PHONE, ID_CARD];
const PLANTED_RE = new RegExp(PLANTED.map((v) => v.replace(/[.]/g, '\\.')).join('|'));

/** A tenant whose agent type records contacts (L1, personal data) and restarts services (L3). */
const DESK_YAML = `
id: privacy
name: Privacy lab
connectors:
  ops_api:
    baseUrl: \${DEMO_OPS_URL}
    token: demo-ops-token
agentTypes:
  desk:
    tools:
      - record_contact
      - restart_service
`;

const CONTACT = {
  name: '张三',
  phone: PHONE,
  idNumber: ID_CARD,
  bankCard: '6222020200112233445',
  email: EMAIL,
  password: 'hunter2',
  secretAnswer: 'blue',
  note: `备注：身份证 ${ID_CARD}`,
};
const RESTART = { service: 'payment-api', reason: '滚动发布后内存泄漏，需要重启' };

const toolCall = (name: string, args: unknown): FakeReply => ({
  toolCalls: [{ id: 'call_0', name, arguments: JSON.stringify(args) }],
  usage: { inputTokens: 10, outputTokens: 5 },
  finishReason: 'tool_calls',
});
const say = (text: string): FakeReply => ({
  text,
  usage: { inputTokens: 10, outputTokens: 5 },
  finishReason: 'stop',
});

/** The first turn of each question, then the answer once a tool result is back. */
type Script = (body: FakeChatRequest) => FakeReply | Promise<FakeReply>;

/** Reads an SSE answer to its end: each event's `data` as parsed JSON, with its type. */
async function readEvents(url: string, key: string): Promise<{ event: string; data: any }[]> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } });
  expect(res.status).toBe(200);
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((b) => b.includes('event:'))
    .map((block) => {
      const line = (name: string) =>
        block
          .split('\n')
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2) ?? '';
      return { event: line('event'), data: JSON.parse(line('data')) };
    });
}

describe('who sees what of a run, and for how long its key acts', () => {
  let gw: TestGateway;
  let fake: FakeOpenAI;
  let admin: string;
  let auditor: string;
  let approver: string;
  let restarts: () => number;
  const scripts = new Map<string, Script>();

  beforeAll(async () => {
    fake = await startFakeOpenAI((body) => {
      const script = scripts.get(questionOf(body));
      return script ? script(body) : say('done');
    });
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({ privacy: DESK_YAML }, 'runs:\n  leaseMs: 2000\n  pollMs: 200\n'),
        TOOLGATE_MODEL_BASE_URL: fake.url,
        TOOLGATE_MODEL_API_KEY: 'sk-test',
        TOOLGATE_MODEL: 'default/scripted',
      },
      imports: [TestToolsModule],
    });
    admin = await gw.createKey('tenant_admin', 'privacy');
    auditor = await gw.createKey('auditor', 'privacy');
    approver = await gw.createKey('approver', 'privacy');
    const ops = gw.app.get(DemoBackends).ops;
    restarts = () => ops.stats.restarts;
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const start = (key: string, input: string) =>
    gw.api('POST', '/v1/agents/desk/runs', { key, body: { input } });
  const keyIdOf = async (key: string) =>
    (await gw.api('GET', '/v1/me', { key })).body.data.principalId as string;
  const readRun = async (runId: string, key: string) =>
    (await gw.api('GET', `/v1/runs/${runId}`, { key })).body;

  it("answers the run's own key its data, and once the run ended keeps and shows none of it raw, to anyone (views, events, sessions)", async () => {
    const agent = await gw.createKey('agent', 'privacy');
    const question = `记录客户 ${EMAIL}，手机 ${PHONE}，身份证 ${ID_CARD}`;
    scripts.set(question, (body) =>
      toolResultsOf(body).length
        ? say(`已记录：${PHONE}，${EMAIL}，${ID_CARD}`)
        : { ...toolCall('record_contact', CONTACT), text: `先记录 ${EMAIL}` },
    );
    const res = await start(agent, question);
    expect(res.status).toBe(200);
    const run = res.body.data;
    expect(run.status).toBe('completed');
    expect(run.steps[0].toolCalls[0]).toMatchObject({ tool: 'record_contact', status: 'succeeded' });
    // The key that started the run got its answer as it is: its program goes on from the results.
    for (const value of PLANTED) expect(JSON.stringify(res.body)).toContain(value);
    // Once the run ended nothing of it is kept raw (issue 23, ADR 036): its own key reads it redacted too.
    const own = await readRun(run.runId, agent);
    expect(own.data.redacted).toBe(true);
    expect(JSON.stringify(own)).not.toMatch(PLANTED_RE);
    expect(own.data.steps[0].toolCalls[0].input.phone).toBe('138****5678');
    expect(JSON.stringify(await readEvents(`${gw.url}/v1/runs/${run.runId}/events`, agent))).not.toMatch(
      PLANTED_RE,
    );

    for (const [who, key] of [
      ['auditor', auditor],
      ['tenant admin', admin],
      ['platform admin', TEST_ADMIN_KEY],
    ] as const) {
      const view = await readRun(run.runId, key);
      expect(view.data, who).toMatchObject({ runId: run.runId, status: 'completed', redacted: true });
      expect(JSON.stringify(view), who).not.toMatch(PLANTED_RE);
      // Redacted, not emptied: masked values keep their shape, schema-marked fields are sealed.
      const call = view.data.steps[0].toolCalls[0];
      expect(call.input).toMatchObject({
        phone: '138****5678',
        password: '[REDACTED]',
        secretAnswer: '[REDACTED]',
      });
      expect(call.result).toMatchObject({ status: 'ok' });

      const events = await readEvents(`${gw.url}/v1/runs/${run.runId}/events`, key);
      expect(
        events.map((e) => e.event),
        who,
      ).toContain('tool_result');
      expect(events.at(-1)!.event).toBe('run_finished');
      expect(events.map((e) => e.event)).not.toContain('text_delta');
      expect(JSON.stringify(events), who).not.toMatch(PLANTED_RE);

      const session = await gw.api('GET', `/v1/sessions/${run.sessionId}/runs`, { key });
      if (who !== 'platform admin') {
        expect(session.status, who).toBe(200);
        expect(session.body.data.runs.map((r: any) => r.runId)).toEqual([run.runId]);
        expect(JSON.stringify(session.body), who).not.toMatch(PLANTED_RE);
      }
      const list = await gw.api('GET', '/v1/runs?limit=200', { key });
      const listed = list.body.data.items.find((r: any) => r.runId === run.runId);
      expect(listed, who).toMatchObject({ redacted: true });
      expect(JSON.stringify(listed), who).not.toMatch(PLANTED_RE);
    }
    // The same e-mail is masked the same way in the trail (one redactor).
    const trail = await gw.api('GET', '/v1/audit/events?tenantId=privacy&limit=500', { key: auditor });
    const started = (trail.body.data.items as any[]).find(
      (e) => e.event === 'started' && e.callId === `${run.runId}.0.0`,
    );
    const view = await readRun(run.runId, auditor);
    expect(view.data.steps[0].toolCalls[0].input.email).toBe(started.input.email);
  });

  it('ends a parked run whose key was revoked: approving it runs nothing, the run fails with the reason', async () => {
    const agent = await gw.createKey('agent', 'privacy');
    const question = '重启 payment-api';
    let asked = 0;
    scripts.set(question, (body) => {
      asked++;
      return toolResultsOf(body).length ? say('已重启') : toolCall('restart_service', RESTART);
    });
    const parked = await start(agent, question);
    expect(parked.status).toBe(202);
    const { runId } = parked.body;
    const approvalId = parked.body.details.approvals[0].approvalId as string;
    const keyId = await keyIdOf(agent);
    expect((await gw.api('DELETE', `/v1/admin/keys/${keyId}`)).status).toBe(200);

    const before = restarts();
    const askedBefore = asked;
    const decided = await gw.api('POST', `/v1/approvals/${approvalId}/approve`, { key: approver, body: {} });
    expect(decided.status).toBe(200);
    // The approved call did not run for a key that no longer holds.
    expect(decided.body.data.call).toMatchObject({
      status: 'failed',
      result: { code: 'UNAUTHENTICATED', details: { reason: 'key_revoked', principalId: keyId } },
    });
    const ended = await waitFor(
      async () => {
        const r = (await readRun(runId, admin)).data;
        return r.status === 'failed' && r;
      },
      { timeoutMs: 10_000, what: 'the run to end' },
    );
    expect(ended.error).toMatchObject({ code: 'UNAUTHENTICATED', details: { reason: 'key_revoked' } });
    expect(ended.steps[0].toolCalls[0]).toMatchObject({
      status: 'failed',
      result: { code: 'UNAUTHENTICATED' },
    });
    expect(restarts()).toBe(before);
    expect(asked).toBe(askedBefore); // the model was not asked for another step
    // The trail says how the run ended (written once the drive is over), and why.
    const trail = await waitFor(
      async () => {
        const items = (await gw.api('GET', '/v1/audit/events?tenantId=privacy&limit=500', { key: auditor }))
          .body.data.items as any[];
        return items.some((e) => e.event === 'run_finished' && e.details?.runId === runId) && items;
      },
      { what: 'run_finished in the trail' },
    );
    const finished = trail.find((e) => e.event === 'run_finished' && e.details?.runId === runId);
    expect(finished.details).toMatchObject({ outcome: 'failed', code: 'UNAUTHENTICATED' });
    expect(trail.some((e) => e.event === 'started' && e.callId?.startsWith(runId))).toBe(false);
  });

  it('stops a running run before its next step once its key is revoked: the asked-for call does not run', async () => {
    const agent = await gw.createKey('agent', 'privacy');
    const keyId = await keyIdOf(agent);
    const question = '记录一个联系人';
    let asked = 0;
    // The key is revoked while the model thinks: the step it answers must not run its call.
    scripts.set(question, async () => {
      asked++;
      await gw.api('DELETE', `/v1/admin/keys/${keyId}`);
      return toolCall('record_contact', CONTACT);
    });
    const res = await start(agent, question);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'failed',
      error: { code: 'UNAUTHENTICATED', details: { reason: 'key_revoked' } },
    });
    expect(res.body.data.steps[0].toolCalls[0]).toMatchObject({
      status: 'failed',
      result: { code: 'UNAUTHENTICATED' },
    });
    expect(asked).toBe(1);
    const ofRun = await waitFor(
      async () => {
        const items = (await gw.api('GET', '/v1/audit/events?tenantId=privacy&limit=500', { key: auditor }))
          .body.data.items as any[];
        const mine = items.filter((e) => e.details?.runId === res.body.data.runId);
        return mine.some((e) => e.event === 'run_finished') && mine;
      },
      { what: 'run_finished in the trail' },
    );
    expect(ofRun.map((e) => e.event).sort()).toEqual(['run_finished', 'run_started']);
  });
});
