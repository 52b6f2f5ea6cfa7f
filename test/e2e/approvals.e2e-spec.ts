import { AuditWriter, draftEvent } from '@toolgate/audit';
import { CallTransitions } from '@toolgate/calls';
import { StatementRefusedError } from '@toolgate/database';
import { DemoBackends } from '@toolgate/tool-packs/testing';
import {
  COUNT_QUERIES_HEADER,
  countQueries,
  makeConfigDir,
  openRawSql,
  startTestGateway,
  testDatabaseKind,
  waitFor,
  waitForMinuteRoom,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions, INITECH_YAML, TestToolsModule } from './test-tools.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const RESTART = { service: 'payment-api', reason: '滚动发布后内存泄漏，需要重启' };

describe('human approval, idempotency and quotas', () => {
  let gw: TestGateway;
  let agent: string;
  let approver: string;
  let approver2: string;
  let admin: string;
  let globexApprover: string;
  let initechAgent: string;
  let initechApprover: string;
  let initechApprover2: string;
  let restarts: () => number;

  beforeAll(async () => {
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir(
          { initech: INITECH_YAML },
          // A minute to decide, however busy the machine: the expiry test moves its deadline instead.
          'approvals:\n  expiryMs: 60000\n  pollMs: 500\n',
        ),
      },
      imports: [TestToolsModule],
    });
    agent = await gw.createKey('agent', 'acme');
    approver = await gw.createKey('approver', 'acme');
    approver2 = await gw.createKey('approver', 'acme');
    admin = await gw.createKey('tenant_admin', 'acme');
    globexApprover = await gw.createKey('approver', 'globex');
    initechAgent = await gw.createKey('agent', 'initech');
    initechApprover = await gw.createKey('approver', 'initech');
    initechApprover2 = await gw.createKey('approver', 'initech');
    const ops = gw.app.get(DemoBackends).ops;
    restarts = () => ops.stats.restarts;
  });
  afterAll(() => gw?.close());

  const invoke = (
    key: string,
    agentType: string,
    tool: string,
    input: unknown,
    extra: { sessionId?: string; headers?: Record<string, string> } = {},
  ) =>
    gw.api('POST', `/v1/agents/${agentType}/tools/${tool}/invoke`, {
      key,
      body: { input, ...(extra.sessionId ? { sessionId: extra.sessionId } : {}) },
      headers: extra.headers,
    });
  const call = async (key: string, callId: string) =>
    (await gw.api('GET', `/v1/calls/${callId}`, { key })).body;
  const approve = (approvalId: string, key: string, body: unknown = {}) =>
    gw.api('POST', `/v1/approvals/${approvalId}/approve`, { key, body });
  const notice = (channel: 'email' | 'sms', text: string, sessionId: string) =>
    invoke(initechAgent, 'audit_tests', 'send_notice', { channel, text }, { sessionId });

  it('parks restart_service, refuses the requester and other tenants, and runs it once after approval', async () => {
    const before = restarts();
    const parked = await invoke(agent, 'ops_assistant', 'restart_service', RESTART);
    expect(parked.status).toBe(202);
    expect(parked.body).toMatchObject({
      code: 'APPROVAL_PENDING',
      callId: expect.any(String),
      approvalId: expect.any(String),
    });
    const { callId, approvalId } = parked.body;
    expect((await call(agent, callId)).data.status).toBe('pending_approval');
    expect(restarts()).toBe(before);

    const inbox = (await gw.api('GET', '/v1/approvals?status=pending', { key: approver })).body.data;
    const item = inbox.find((a: any) => a.approvalId === approvalId);
    expect(item).toMatchObject({
      tool: 'restart_service',
      riskLevel: 'L3',
      prompt: expect.stringContaining('重启 payment-api'),
    });
    expect((await approve(approvalId, agent)).status).toBe(403);
    expect((await approve(approvalId, globexApprover)).status).toBe(404);

    const approved = await approve(approvalId, approver, { comment: '同意' });
    expect(approved.status).toBe(200);
    expect(approved.body.data.call).toMatchObject({
      callId,
      status: 'succeeded',
      result: { status: 'ok', data: { service: 'payment-api', restarted: true } },
    });
    expect(restarts()).toBe(before + 1);
    expect((await call(agent, callId)).data).toMatchObject({ status: 'succeeded', result: { status: 'ok' } });
    expect((await approve(approvalId, approver2)).status).toBe(409);
    expect(restarts()).toBe(before + 1);

    const story = (await gw.api('GET', `/v1/audit/calls/${callId}`)).body.data.events.map(
      (e: any) => e.event,
    );
    expect(story).toEqual(['approval_requested', 'approval_decided', 'started', 'finished']);
    expect(
      (await gw.api('GET', `/v1/calls/${callId}`, { key: await gw.createKey('agent', 'globex') })).status,
    ).toBe(404);
  });

  it('never runs a denied call', async () => {
    const before = restarts();
    const parked = await invoke(agent, 'ops_assistant', 'restart_service', RESTART);
    expect(
      (await gw.api('POST', `/v1/approvals/${parked.body.approvalId}/deny`, { key: admin, body: {} })).status,
    ).toBe(400); // a denial says why
    const denied = await gw.api('POST', `/v1/approvals/${parked.body.approvalId}/deny`, {
      key: admin,
      body: { comment: '业务高峰期，不允许重启' },
    });
    expect(denied.body.data.call.status).toBe('denied');
    const state = await call(agent, parked.body.callId);
    expect(state.data).toMatchObject({ status: 'denied', result: { code: 'APPROVAL_DENIED' } });
    // Time must pass here: a window in which a wrongly resumed call would have reached the upstream.
    await sleep(200);
    expect(restarts()).toBe(before);
  });

  it('expires approvals nobody decided in time', async () => {
    const parked = await invoke(agent, 'ops_assistant', 'restart_service', RESTART);
    // Its minute is made to have passed (acme's undecided approvals); the sweep (pollMs 500) marks it.
    const sql = await openRawSql(gw.db);
    try {
      await sql.query(`UPDATE approvals SET expires_at = ? WHERE tenant_id = 'acme' AND status = 'pending'`, [
        '2000-01-01 00:00:00.000',
      ]);
    } finally {
      await sql.close();
    }
    await waitFor(async () => (await call(agent, parked.body.callId)).data.status === 'expired', {
      timeoutMs: 10_000,
      what: 'the unanswered approval to expire',
    });
    const late = await approve(parked.body.approvalId, approver);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('APPROVAL_EXPIRED');
    expect((await call(agent, parked.body.callId)).data).toMatchObject({
      status: 'expired',
      result: { code: 'APPROVAL_EXPIRED' },
    });
  });

  it('needs two distinct approvers for L3 where the tenant asks for it', async () => {
    const parked = await invoke(initechAgent, 'audit_tests', 'restart_service', RESTART);
    const first = await approve(parked.body.approvalId, initechApprover);
    expect(first.body.data.call.status).toBe('pending_approval');
    expect((await approve(parked.body.approvalId, initechApprover)).status).toBe(403);
    const second = await approve(parked.body.approvalId, initechApprover2);
    expect(second.body.data.call.status).toBe('succeeded');
    expect(second.body.data.approval.decisions).toHaveLength(2);
  });

  it('once: asks once per session and approval key, and tells the tool who approved', async () => {
    const first = await notice('email', 'hi', 's1');
    expect(first.status).toBe(202);
    const approved = await approve(first.body.approvalId, initechApprover);
    expect(approved.body.data.call.result.data).toEqual({
      sent: true,
      responder: expect.stringMatching(/^key_/),
    });
    const again = await notice('email', 'second', 's1');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ sent: true, responder: null });
    expect((await notice('email', 'x', 's2')).status).toBe(202);
    expect((await notice('sms', 'x', 's1')).status).toBe(202);
  });

  it('runs a call once per Idempotency-Key, even when requests race', async () => {
    // Counted from here: the e2e projects share test-tools.ts between the files of a worker.
    const before = executions.recordNote;
    const headers = { 'idempotency-key': 'order-4711' };
    const first = await invoke(initechAgent, 'audit_tests', 'record_note', { note: 'once' }, { headers });
    const replay = await invoke(initechAgent, 'audit_tests', 'record_note', { note: 'once' }, { headers });
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('x-call-id')).toBe(first.headers.get('x-call-id'));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(executions.recordNote).toBe(before + 1);
    const conflict = await invoke(
      initechAgent,
      'audit_tests',
      'record_note',
      { note: 'other input' },
      { headers },
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('IDEMPOTENCY_CONFLICT');

    const startsBefore = executions.steadyNoteStarts;
    const raced = await Promise.all(
      Array.from({ length: 20 }, () =>
        invoke(initechAgent, 'audit_tests', 'steady_note', {}, { headers: { 'idempotency-key': 'race-1' } }),
      ),
    );
    expect(new Set(raced.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(raced[0]!.body).toMatchObject({ status: 'ok', data: { steady: true } });
    expect(new Set(raced.map((r) => r.headers.get('x-call-id'))).size).toBe(1);
    // Every execution starts before its request answers: once all 20 answered, all starts are counted.
    expect(executions.steadyNoteStarts - startsBefore).toBe(1);
  });

  it('replays a parked call as pending, then as its outcome', async () => {
    const headers = { 'idempotency-key': 'restart-42' };
    const parked = await invoke(agent, 'ops_assistant', 'restart_service', RESTART, { headers });
    const replay = await invoke(agent, 'ops_assistant', 'restart_service', RESTART, { headers });
    expect(replay.status).toBe(202);
    expect(replay.body.callId).toBe(parked.body.callId);
    await approve(parked.body.approvalId, approver);
    const done = await invoke(agent, 'ops_assistant', 'restart_service', RESTART, { headers });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'ok', data: { restarted: true } });
  });

  it("writes no started, and runs nothing, where the started's claim finds the call not queued", async () => {
    const parked = await invoke(agent, 'ops_assistant', 'restart_service', RESTART);
    const { callId, approvalId } = parked.body;
    const ref = { tenantId: 'acme', callId };
    // A gateway that took the call over before the decision committed (ADR 018) sends its `started`
    // with the claim: the call is still pending_approval, so the guard rolls all of it back.
    const started = draftEvent({
      tenantId: 'acme',
      event: 'started',
      callId,
      tool: 'restart_service',
      actor: { type: 'api_key', id: 'key_other' },
      occurredAt: new Date(),
      instanceId: 'gw-other',
    });
    const claim = Object.assign(() => [CallTransitions.claim(ref, 'gw-other')], { guarded: true as const });
    await expect(
      gw.app.get(AuditWriter).append([started], 10_000, { sidecar: claim }),
    ).rejects.toBeInstanceOf(StatementRefusedError);
    expect((await call(agent, callId)).data.status).toBe('pending_approval');
    const before = restarts();
    expect((await approve(approvalId, approver)).body.data.call.status).toBe('succeeded');
    expect(restarts()).toBe(before + 1);
    const story = (await gw.api('GET', `/v1/audit/calls/${callId}`)).body.data.events.map(
      (e: any) => e.event,
    );
    expect(story).toEqual(['approval_requested', 'approval_decided', 'started', 'finished']);
    // Once it ran, a late claim (a second gateway's) is refused or dropped (its start's key is taken).
    const late = await gw.app
      .get(AuditWriter)
      .append([started], 10_000, { sidecar: claim })
      .catch((err: Error) => [err.name]);
    expect(late).not.toEqual(['written']);
    expect((await gw.api('GET', '/v1/audit/verify?tenantId=acme')).body.data).toMatchObject({ ok: true });
  });

  // What the approver waits for, counted (ADR 049): a property of the code path, not a timing. On one
  // MariaDB server: the decision's reads (the approval and the chain head locked) in one packet, its
  // writes, event and COMMIT in another, the call's `started` (carrying the claim) and `finished`
  // commits, and beside the decision's commit the tenant's tools and the requester's standing. Reads
  // that only refresh a cache (the key, the tenant, its bindings) are left out.
  it.runIf(testDatabaseKind() === 'mariadb')(
    'approves in two round trips plus the call, on MariaDB',
    async () => {
      const counted = countQueries(gw.app.getHttpServer());
      const cacheRefresh = /AS `(ApiKeyEntity_name|TenantEntity_id|AgentBindingEntity_tenant_id)`/;
      for (let round = 0; round < 2; round++) {
        const parked = await invoke(agent, 'ops_assistant', 'restart_service', RESTART);
        const label = `approve-${round}-${parked.body.approvalId}`;
        const approved = await gw.api('POST', `/v1/approvals/${parked.body.approvalId}/approve`, {
          key: approver,
          body: {},
          headers: { [COUNT_QUERIES_HEADER]: label },
        });
        expect(approved.body.data.call).toMatchObject({ status: 'succeeded', result: { status: 'ok' } });
        const trips = counted(label)!.sql.filter((sql) => !cacheRefresh.test(sql));
        const packets = trips.map((sql) =>
          sql.split(';\n').map((s) => s.trim().split(/\s+/).slice(0, 3).join(' ')),
        );
        const commits = trips.filter((sql) => /(^|;\n)COMMIT$/.test(sql));
        expect(trips, JSON.stringify(packets, null, 1)).toHaveLength(6);
        // The decision's reads start its transaction; three packets commit (decision, started, finished).
        expect(trips[0]).toMatch(/^START TRANSACTION;\nSELECT .* FOR UPDATE;/s);
        expect(trips[0]!.match(/FOR UPDATE/g)).toHaveLength(2);
        expect(commits).toHaveLength(3);
        expect(commits[0]).toMatch(
          /INSERT INTO approval_decisions.*UPDATE tool_calls.*INSERT INTO audit_events/s,
        );
        // The claim rides in the `started` commit, guarded.
        expect(commits[1]).toMatch(/UPDATE tool_calls SET status = \?.*SET @toolgate_guard.*COMMIT$/s);
      }
    },
  );

  it('answers 429 with Retry-After past a quota', async () => {
    // The quota counts per UTC minute: a boundary between the calls would let the fourth through.
    await waitForMinuteRoom(5_000); // five calls take well under a second
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push(
        await invoke(initechAgent, 'audit_tests', 'get_service_status', { service: 'payment-api' }),
      );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
    expect(answers[3]!.body.code).toBe('RATE_LIMITED');
    const retryAfter = Number(answers[3]!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const otherKey = await gw.createKey('agent', 'initech');
    expect(
      (await invoke(otherKey, 'audit_tests', 'get_service_status', { service: 'payment-api' })).status,
    ).toBe(200);
  });
});
