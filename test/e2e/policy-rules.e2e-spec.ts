import { Module } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { defineToolContract, ToolkitModule } from '@toolgate/toolkit';
import {
  makeConfigDir,
  questionOf,
  startFakeOpenAI,
  startTestGateway,
  toolResultsOf,
  waitFor,
  type FakeOpenAI,
  type TestGateway,
} from '@toolgate/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { z } from 'zod';

/** How often each rule-test tool's body ran (read relative to a test's start: files share a worker). */
const ran = { refund: 0, restart: 0, ledger: 0, archive: 0, tag: 0 };

const refundOrder = defineToolContract({
  name: 'refund_order',
  description: 'Refunds an order (rules test tool, L2).',
  inputSchema: z.object({ orderId: z.string(), amount: z.number().positive() }),
  risk: { level: 'L2', dataDomains: ['finance.refunds'] },
}).implement(({ orderId, amount }) => {
  ran.refund++;
  return { orderId, refunded: amount };
});
const restartApp = defineToolContract({
  name: 'restart_app',
  description: 'Restarts an application (rules test tool, L1).',
  inputSchema: z.object({ service: z.string() }),
  risk: { level: 'L1' },
}).implement(({ service }) => {
  ran.restart++;
  return { service, restarted: true };
});
const readLedger = defineToolContract({
  name: 'read_ledger',
  description: 'Reads the ledger (rules test tool, L1).',
  inputSchema: z.object({}),
  risk: { level: 'L1', dataDomains: ['finance.ledger'] },
}).implement(() => {
  ran.ledger++;
  return { balance: 42 };
});
const archiveLedger = defineToolContract({
  name: 'archive_ledger',
  description: 'Archives the ledger (rules test tool, L1).',
  inputSchema: z.object({}),
  risk: { level: 'L1' },
}).implement(() => {
  ran.archive++;
  return { archived: true };
});
const tagOrder = defineToolContract({
  name: 'tag_order',
  description: 'Tags an order (rules test tool, L1).',
  inputSchema: z.object({ orderId: z.string(), memo: z.string().optional() }),
  risk: { level: 'L1' },
}).implement(({ orderId }) => {
  ran.tag++;
  return { orderId, tagged: true };
});

@Module({
  imports: [
    ToolkitModule.forFeature(
      [refundOrder, restartApp, readLedger, archiveLedger, tagOrder],
      'PolicyRulesTestTools',
    ),
  ],
})
class PolicyRulesTestTools {}

/** A tenant whose finance agent carries one rule of each kind. */
const RULESCO_YAML = `
id: rulesco
name: Rules Co
agentTypes:
  finance:
    description: Refunds and ledgers.
    tools:
      - name: refund_order
        rules:
          - id: small-refund
            when: input.amount <= 100
            then: allow
          - id: refund-too-large
            when: input.amount > 50000
            then: deny
            reason:
              en: refunds above 50,000 CNY are handled by the finance team
              zh: 超过 50,000 元的退款由财务部门处理
          - id: refund-needs-approval
            when: input.amount > 1000
            then: require_approval
            approvers: 2
            expiresInMs: 120000
      - name: restart_app
        rules:
          # Asia/Shanghai is UTC+8 all year: its hour never equals UTC's, so the window is always on.
          - id: payment-freeze
            when: input.service == "payment-api" && now.getHours("Asia/Shanghai") != now.getHours("UTC")
            then: deny
            reason:
              en: payment-api is frozen during business hours (Beijing time)
              zh: 北京时间工作时段内 payment-api 冻结
      - name: read_ledger
        rules:
          - id: auditors-only
            when: principal.name != "auditor-bot"
            then: deny
            reason:
              en: only the auditor bot reads the ledger
              zh: 只有审计机器人可以读取总账
      - name: archive_ledger
        rules:
          - id: never-archive
            when: "true"
            then: deny
            reason:
              en: archiving is done by the platform team
              zh: 归档由平台团队操作
      - name: tag_order
        rules:
          - id: urgent-memo
            when: input.memo.startsWith("urgent")
            then: require_approval
`;

describe('rules on arguments (issue 26)', () => {
  let gw: TestGateway;
  let financeBot: string;
  let auditorBot: string;
  let admin: string;
  let approver: string;
  let auditor: string;
  const clients: Client[] = [];
  let model: FakeOpenAI;

  beforeAll(async () => {
    // The model asks for read_ledger, then answers with the code its result carried.
    model = await startFakeOpenAI((body) => {
      const results = toolResultsOf(body);
      if (!results.length) return { toolCalls: [{ id: 'l', name: 'read_ledger', arguments: '{}' }] };
      return { text: String(JSON.parse(String(results[0]!.content)).code ?? 'ok') };
    });
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({ rulesco: RULESCO_YAML }),
        TOOLGATE_MODEL_BASE_URL: model.url,
        TOOLGATE_MODEL_API_KEY: 'sk-test-secret',
        TOOLGATE_MODEL: 'default/test-model',
      },
      imports: [PolicyRulesTestTools],
    });
    financeBot = await gw.createKey('agent', 'rulesco', { name: 'finance-bot' });
    auditorBot = await gw.createKey('agent', 'rulesco', { name: 'auditor-bot' });
    admin = await gw.createKey('tenant_admin', 'rulesco');
    approver = await gw.createKey('approver', 'rulesco');
    auditor = await gw.createKey('auditor', 'rulesco');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await gw?.close();
    await model?.close();
  });

  const invoke = (tool: string, input: unknown, key = financeBot) =>
    gw.api('POST', `/v1/agents/finance/tools/${tool}/invoke`, { key, body: { input } });
  const check = (tool: string, input: unknown, key = financeBot) =>
    gw.api('POST', `/v1/agents/finance/tools/${tool}/check`, { key, body: { input } });
  const story = async (callId: string) =>
    (await gw.api('GET', `/v1/audit/calls/${callId}`, { key: auditor })).body.data?.events as
      any[] | undefined;
  const deniedEvent = (callId: string) =>
    waitFor(async () => {
      const page = await gw.api('GET', `/v1/audit/events?tenantId=rulesco&event=access_denied&limit=100`, {
        key: auditor,
      });
      return (page.body.data.items as any[]).find((e) => e.callId === callId);
    });
  const connect = async (secret: string) => {
    const client = new Client({ name: 'toolgate-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp/finance`), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };

  it('decides a refund by its amount: first match wins, in written order', async () => {
    const before = ran.refund;
    const small = await invoke('refund_order', { orderId: 'o-1', amount: 80 });
    expect(small.status).toBe(200);
    expect(small.body).toMatchObject({ status: 'ok', data: { refunded: 80 } });
    const middle = await invoke('refund_order', { orderId: 'o-2', amount: 700 });
    expect(middle.body).toMatchObject({ status: 'ok' });
    expect(ran.refund).toBe(before + 2);

    const parked = await invoke('refund_order', { orderId: 'o-3', amount: 5000 });
    expect(parked.status).toBe(202);
    expect(parked.body).toMatchObject({ code: 'APPROVAL_PENDING', approvalId: expect.any(String) });

    const refused = await invoke('refund_order', { orderId: 'o-4', amount: 60000 });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'POLICY_DENIED',
      error: expect.stringContaining('refunds above 50,000 CNY are handled by the finance team'),
      suggestedAction: expect.any(String),
      details: { rule: { id: 'refund-too-large', bindingVersion: 1, then: 'deny', failed: false } },
    });
    const zh = await gw.api('POST', '/v1/agents/finance/tools/refund_order/invoke', {
      key: financeBot,
      body: { input: { orderId: 'o-5', amount: 70000 } },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.body.error).toContain('超过 50,000 元的退款由财务部门处理');
    expect(ran.refund).toBe(before + 2);

    // The approval asks for the rule's two approvers, and expires on the rule's two minutes.
    const inbox = (await gw.api('GET', '/v1/approvals?status=pending', { key: approver })).body.data;
    const item = inbox.find((a: any) => a.approvalId === parked.body.approvalId);
    expect(item).toMatchObject({ tool: 'refund_order', requiredApprovals: 2 });
    expect(Date.parse(item.expiresAt) - Date.parse(item.createdAt)).toBe(120_000);

    // The audit names the rule that decided: the allowed call's events, the approval, the refusal.
    const smallEvents = await waitFor(async () => {
      const events = await story(small.headers.get('x-call-id')!);
      return events?.some((e) => e.event === 'finished') ? events : undefined;
    });
    for (const e of smallEvents)
      expect(e.details.rule).toEqual({ id: 'small-refund', bindingVersion: 1, then: 'allow' });
    const middleEvents = await story(middle.headers.get('x-call-id')!);
    expect(middleEvents!.every((e) => e.details?.rule === undefined)).toBe(true);
    const parkedEvents = await story(parked.body.callId);
    expect(parkedEvents!.find((e) => e.event === 'approval_requested').details).toMatchObject({
      rule: { id: 'refund-needs-approval', bindingVersion: 1, then: 'require_approval' },
      required: 2,
    });
    const denial = await deniedEvent(refused.headers.get('x-call-id')!);
    expect(denial).toMatchObject({
      code: 'POLICY_DENIED',
      tool: 'refund_order',
      details: { rule: { id: 'refund-too-large', bindingVersion: 1 } },
    });
  });

  it('applies a time window in a time zone', async () => {
    const before = ran.restart;
    const frozen = await invoke('restart_app', { service: 'payment-api' });
    expect(frozen.status).toBe(403);
    expect(frozen.body).toMatchObject({ code: 'POLICY_DENIED', details: { rule: { id: 'payment-freeze' } } });
    const other = await invoke('restart_app', { service: 'search-api' });
    expect(other.body).toMatchObject({ status: 'ok', data: { restarted: true } });
    expect(ran.restart).toBe(before + 1);
  });

  it('hides a tool the principal’s rules always refuse, over REST and MCP, and refuses it by name', async () => {
    const listed = async (key: string) =>
      (await gw.api('GET', '/v1/agents/finance/tools', { key })).body.data.map((t: any) => t.name);
    expect(await listed(financeBot)).toEqual(['refund_order', 'restart_app', 'tag_order']);
    expect(await listed(auditorBot)).toEqual(['refund_order', 'restart_app', 'read_ledger', 'tag_order']);

    const before = ran.ledger;
    const finance = await connect(financeBot);
    const names = (await finance.listTools()).tools.map((t) => t.name);
    expect(names).toContain('refund_order');
    expect(names).not.toContain('read_ledger');
    expect(names).not.toContain('archive_ledger');
    const refused = await finance.callTool({ name: 'read_ledger', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(refused._meta?.['toolgate/error']).toMatchObject({
      code: 'POLICY_DENIED',
      details: { rule: { id: 'auditors-only' } },
    });
    const auditorClient = await connect(auditorBot);
    expect((await auditorClient.listTools()).tools.map((t) => t.name)).toContain('read_ledger');
    const allowed = await auditorClient.callTool({ name: 'read_ledger', arguments: {} });
    expect(allowed.isError).toBeFalsy();
    expect(allowed.structuredContent).toEqual({ balance: 42 });
    expect(ran.ledger).toBe(before + 1);
  });

  it('leaves hidden tools out of a run’s tool set; a call by name is refused with the reason', async () => {
    const before = ran.ledger;
    const res = await gw.api('POST', '/v1/agents/finance/runs', {
      key: financeBot,
      body: { input: 'ledger?' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'completed', output: 'POLICY_DENIED' });
    const first = model.requests.find((r) => questionOf(r) === 'ledger?' && !toolResultsOf(r).length)!;
    const offered = (first.tools ?? []).map((t: any) => t.function.name);
    expect(offered).toEqual(expect.arrayContaining(['refund_order', 'restart_app', 'tag_order']));
    expect(offered).not.toContain('read_ledger');
    expect(offered).not.toContain('archive_ledger');
    expect(ran.ledger).toBe(before);
  });

  it('answers what a call would meet without running anything', async () => {
    const before = { ...ran };
    const run = await check('refund_order', { orderId: 'c-1', amount: 50 });
    expect(run.status).toBe(200);
    expect(run.body.data).toEqual({
      agentType: 'finance',
      tool: 'refund_order',
      bindingVersion: 1,
      rule: { id: 'small-refund', bindingVersion: 1, then: 'allow', failed: false },
      next: 'run',
      approvers: null,
      expiresInMs: null,
      code: null,
      reason: null,
    });
    expect((await check('refund_order', { orderId: 'c-2', amount: 500 })).body.data).toMatchObject({
      rule: null,
      next: 'run',
    });
    expect((await check('refund_order', { orderId: 'c-3', amount: 5000 })).body.data).toMatchObject({
      rule: { id: 'refund-needs-approval' },
      next: 'park',
      approvers: 2,
      expiresInMs: 120_000,
    });
    expect((await check('refund_order', { orderId: 'c-4', amount: 90000 })).body.data).toMatchObject({
      rule: { id: 'refund-too-large', then: 'deny' },
      next: 'refuse',
      code: 'POLICY_DENIED',
      reason: 'refunds above 50,000 CNY are handled by the finance team',
    });
    expect((await check('refund_order', { orderId: 'c-5', amount: 'lots' })).body.data).toMatchObject({
      next: 'refuse',
      code: 'INVALID_INPUT',
      issues: [expect.objectContaining({ path: expect.stringContaining('amount') })],
    });
    expect((await check('no_such_tool', {})).status).toBe(404);
    expect((await check('refund_order', {}, admin)).status).toBe(403);
    expect(ran).toEqual(before);
  });

  it('answers the same for the bindings editor, as any agent key or as one of them (the console’s try it)', async () => {
    const asAdmin = (tool: string, body: unknown, key = admin, tenant = 'rulesco') =>
      gw.api('POST', `/v1/admin/tenants/${tenant}/agent-types/finance/tools/${tool}/check`, { key, body });
    const before = { ...ran };
    const large = await asAdmin('refund_order', { input: { orderId: 'o-9', amount: 60_000 } });
    expect(large.status, large.text).toBe(200);
    expect(large.body.data).toMatchObject({
      next: 'refuse',
      code: 'POLICY_DENIED',
      rule: { id: 'refund-too-large' },
    });
    // A principal-scoped rule: any agent key is refused the ledger, the auditor bot is not.
    const anyKey = await asAdmin('read_ledger', { input: {} });
    expect(anyKey.body.data).toMatchObject({ next: 'refuse', rule: { id: 'auditors-only' } });
    const botId = (await gw.api('GET', '/v1/me', { key: auditorBot })).body.data.principalId as string;
    const asBot = await asAdmin('read_ledger', { input: {}, keyId: botId });
    expect(asBot.body.data).toMatchObject({ next: 'run', rule: null });
    // Another tenant's admin, an approver, an unknown key: refused; nothing ran.
    const globexAdmin = await gw.createKey('tenant_admin', 'globex');
    expect((await asAdmin('refund_order', { input: {} }, globexAdmin)).status).toBe(404);
    expect((await asAdmin('refund_order', { input: {} }, approver)).status).toBe(403);
    expect((await asAdmin('read_ledger', { input: {}, keyId: 'nope' })).status).toBe(404);
    expect(ran).toEqual(before);
  });

  it('checks exactly what the call then meets, for generated inputs', async () => {
    // What the invoke answer's status says happened: ran, parked, or refused.
    const happened = (status: number) => ({ 200: 'run', 202: 'park', 403: 'refuse' })[status];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 1, max: 120_000 }), fc.constantFrom(100, 101, 1000, 1001, 50_000, 50_001)),
        async (amount) => {
          const input = { orderId: `p-${amount}`, amount };
          const predicted = (await check('refund_order', input)).body.data;
          const answer = await invoke('refund_order', input);
          expect(happened(answer.status), `amount ${amount}`).toBe(predicted.next);
          if (predicted.next === 'refuse') expect(answer.body.details.rule.id).toBe(predicted.rule.id);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('fails closed on a rule that cannot be evaluated', async () => {
    const before = ran.tag;
    const refused = await invoke('tag_order', { orderId: 'o-9' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'POLICY_DENIED',
      details: { rule: { id: 'urgent-memo', failed: true } },
    });
    const parked = await invoke('tag_order', { orderId: 'o-9', memo: 'urgent: customer waiting' });
    expect(parked.status).toBe(202);
    const plain = await invoke('tag_order', { orderId: 'o-9', memo: 'routine' });
    expect(plain.body).toMatchObject({ status: 'ok' });
    expect(ran.tag).toBe(before + 1);
    expect((await check('tag_order', { orderId: 'o-9' })).body.data).toMatchObject({
      rule: { id: 'urgent-memo', failed: true },
      next: 'refuse',
      code: 'POLICY_DENIED',
    });
  });

  it('refuses rules that loosen or cannot compile when saved, and versions rules with the binding', async () => {
    const bindings = async () =>
      (await gw.api('GET', '/v1/admin/tenants/rulesco/bindings', { key: admin })).body.data.find(
        (b: any) => b.agentType === 'finance',
      );
    const current = await bindings();
    const put = (tools: unknown[], version = current.version) =>
      gw.api('PUT', '/v1/admin/tenants/rulesco/agents/finance/bindings', {
        key: admin,
        body: { version, tools },
      });
    const rule = (when: string, then = 'require_approval') => ({ id: 'r1', when, then });

    const loosening = await put([{ name: 'restart_service', rules: [rule('true', 'allow')] }]);
    expect(loosening.status).toBe(400);
    expect(loosening.body).toMatchObject({ code: 'INVALID_INPUT', suggestedAction: expect.any(String) });
    expect(loosening.body.details.issues[0]).toMatchObject({
      path: 'tools.0.rules.0.then',
      message: expect.stringContaining('cannot remove the approval'),
    });
    for (const [when, says] of [
      ['input.amount >', 'Unexpected'],
      ['nobody == 1', 'Unknown variable'],
      ['input.amount + 1', 'true or false'],
      ['input.items.exists(i, i.tags.exists(t, t == "x"))', 'inside another'],
      ['input.orderId.matches("(a+)+$")', 'matches() is not allowed'],
    ] as const) {
      const bad = await put([{ name: 'refund_order', rules: [rule(when)] }]);
      expect(bad.status, when).toBe(400);
      expect(bad.body.details.issues[0], when).toMatchObject({
        path: 'tools.0.rules.0.when',
        message: expect.stringContaining(says),
      });
    }
    const noReason = await put([{ name: 'refund_order', rules: [rule('true', 'deny')] }]);
    expect(noReason.status).toBe(400);
    const preview = await gw.api('POST', '/v1/admin/tenants/rulesco/agents/finance/bindings/preview', {
      key: admin,
      body: { tools: [{ name: 'restart_service', rules: [rule('true', 'allow')] }] },
    });
    expect(preview.body.data.problems[0]).toMatchObject({ path: 'tools.0.rules.0.then' });
    expect((await bindings()).version).toBe(current.version);

    // A new rule is a new binding version: history, diff, and the YAML round trip carry it.
    const tools = current.tools.map((t: any) =>
      t.name === 'archive_ledger'
        ? { name: 'archive_ledger', rules: [rule('principal.role == "agent"')] }
        : t,
    );
    const saved = await put(tools);
    expect(saved.status).toBe(200);
    expect(saved.body.data.version).toBe(current.version + 1);
    const history = (
      await gw.api('GET', '/v1/admin/tenants/rulesco/bindings/history?agentType=finance', { key: admin })
    ).body.data;
    expect(history[0].diff).toMatchObject({ added: [], removed: [], changed: [{ name: 'archive_ledger' }] });
    expect(
      (await gw.api('GET', '/v1/agents/finance/tools', { key: financeBot })).body.data.map(
        (t: any) => t.name,
      ),
    ).toContain('archive_ledger');
    const archive = await invoke('archive_ledger', {});
    expect(archive.status).toBe(202);
    const exported = await gw.api('GET', '/v1/admin/tenants/rulesco/export', { key: admin });
    const doc = parse(exported.text);
    expect(doc.agentTypes.finance.tools.find((t: any) => t.name === 'refund_order').rules).toHaveLength(3);
    const again = await gw.api('POST', '/v1/admin/tenants/rulesco/import', {
      key: admin,
      body: { yaml: stringify(doc) },
    });
    expect(again.body.data).toMatchObject({ unchanged: true });
  });
});
