import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeConfigDir, startTestGateway, type TestGateway } from '@toolgate/testing';
import { DemoBackends } from '@toolgate/tool-packs/testing';
import { INITECH_YAML, TestToolsModule } from './test-tools.js';

/** A tenant whose binding shortens get_service_status's limit, to show the timeout without waiting 10 s. */
const SHORT_LIMIT_MS = 300;
const HOOLI_YAML = `
id: hooli
name: Hooli
locale: zh-CN
connectors:
  ops_api:
    baseUrl: \${DEMO_OPS_URL}
    token: demo-ops-token
agentTypes:
  ops_assistant:
    tools:
      - name: get_service_status
        timeoutMs: ${SHORT_LIMIT_MS}
`;

describe('governed tool calls over REST', () => {
  let gw: TestGateway;
  let acme: string;
  let globex: string;
  let initech: string;
  let hooli: string;

  beforeAll(async () => {
    gw = await startTestGateway({
      env: { TOOLGATE_CONFIG_DIR: makeConfigDir({ initech: INITECH_YAML, hooli: HOOLI_YAML }) },
      imports: [TestToolsModule],
    });
    acme = await gw.createKey('agent', 'acme');
    globex = await gw.createKey('agent', 'globex');
    initech = await gw.createKey('agent', 'initech');
    hooli = await gw.createKey('agent', 'hooli');
  });
  afterAll(() => gw?.close());

  const invoke = (
    key: string,
    agentType: string,
    tool: string,
    body: unknown,
    headers?: Record<string, string>,
  ) => gw.api('POST', `/v1/agents/${agentType}/tools/${tool}/invoke`, { key, body, headers });

  it('lists each tenant its own agent types and bound tools', async () => {
    const agents = await gw.api('GET', '/v1/agents', { key: acme });
    expect(agents.status).toBe(200);
    expect(agents.body.data.map((a: { agentType: string }) => a.agentType)).toEqual([
      'contract_review',
      'ops_assistant',
    ]);
    // The demo tenants think with the built-in planner, and say so.
    expect(agents.body.data[0].model).toEqual({
      name: 'demo/demo-planner',
      label: 'demo planner (offline, deterministic)',
      offline: true,
    });
    const tools = await gw.api('GET', '/v1/agents/ops_assistant/tools', { key: acme });
    expect(tools.body.data.map((t: { name: string }) => t.name)).toEqual([
      'get_service_status',
      'read_logs',
      'restart_service',
    ]);
    const status = tools.body.data[0];
    expect(status.risk).toMatchObject({ level: 'L0', approvalRequired: false });
    expect(status.inputSchema).toMatchObject({
      type: 'object',
      required: ['service'],
      additionalProperties: false,
    });
    expect(status.inputSchema.$schema).toBeUndefined();
    expect(tools.body.data[2].risk).toMatchObject({ level: 'L3', approvalRequired: true });
  });

  it('exports openai, anthropic and mcp formats', async () => {
    const openai = (await gw.api('GET', '/v1/agents/ops_assistant/tools?format=openai', { key: acme })).body
      .data;
    expect(openai[1]).toMatchObject({ type: 'function', function: { name: 'read_logs', strict: false } });
    expect(openai[1].function.parameters.properties.limit.default).toBe(50);
    const anthropic = (await gw.api('GET', '/v1/agents/ops_assistant/tools?format=anthropic', { key: acme }))
      .body.data;
    expect(anthropic[0]).toMatchObject({ name: 'get_service_status', input_schema: { type: 'object' } });
    const mcp = (await gw.api('GET', '/v1/agents/ops_assistant/tools?format=mcp', { key: acme })).body.data;
    expect(mcp[0].annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(mcp[2].annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    const bad = await gw.api('GET', '/v1/agents/ops_assistant/tools?format=xml', { key: acme });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_INPUT');
  });

  it('runs a bound tool and answers the envelope with X-Call-Id', async () => {
    const res = await invoke(acme, 'ops_assistant', 'get_service_status', {
      input: { service: 'payment-api' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      data: { service: 'payment-api', status: 'healthy', instances: 3 },
    });
    expect(res.headers.get('x-call-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives acme and globex different implementations under one tool name', async () => {
    const a = await invoke(acme, 'contract_review', 'query_supplier_delivery', {
      input: { supplierId: 'V10023' },
    });
    const g = await invoke(globex, 'contract_review', 'query_supplier_delivery', {
      input: { supplierId: 'V10023' },
    });
    expect(a.body.data.source).toBe('sap');
    expect(g.body.data.source).toBe('yonyou_nc');
    expect(a.body.data.deliveries).not.toEqual(g.body.data.deliveries);
  });

  it('refunds on the demo tenants by the rule: up to ¥5,000 runs, above parks for finance, above ¥50,000 is refused (issue 26)', async () => {
    const { sap, nc } = gw.app.get(DemoBackends);
    const refund = (key: string, input: unknown, headers?: Record<string, string>) =>
      invoke(key, 'contract_review', 'create_refund', { input }, headers);
    const reason = '货物破损，客户退回 20 件';

    // At the threshold: no rule matches, the L2 tool runs at once, on each tenant's own ERP.
    const sapBefore = sap.refunds.booked.length;
    const small = await refund(acme, { invoiceId: '90012001', amount: 5000, reason });
    expect(small.status, small.text).toBe(200);
    expect(small.body.data).toMatchObject({ invoiceId: '90012001', amount: 5000, source: 'sap' });
    expect(sap.refunds.booked.length).toBe(sapBefore + 1);
    const ncSmall = await refund(globex, { invoiceId: 'XSFP2025110001', amount: 880.5, reason });
    expect(ncSmall.body.data).toMatchObject({ amount: 880.5, source: 'yonyou_nc' });

    // Above ¥5,000: parked for the finance group; nothing reaches SAP until a member approves.
    const parked = await refund(acme, { invoiceId: '90012002', amount: 12000, reason });
    expect(parked.status, parked.text).toBe(202);
    expect(parked.body).toMatchObject({ code: 'APPROVAL_PENDING', approvalId: expect.any(String) });
    expect(sap.refunds.booked.length).toBe(sapBefore + 1);
    const approve = (key: string) =>
      gw.api('POST', `/v1/approvals/${parked.body.approvalId}/approve`, { key, body: {} });
    const outsider = await gw.createKey('approver', 'acme', { name: 'not finance' });
    const notMember = await approve(outsider);
    expect(notMember.status).toBe(403);
    expect(notMember.body.details).toMatchObject({ approverGroup: 'finance' });
    const finance = await gw.createKey('approver', 'acme', { name: 'finance', owner: 'oidc:wang.fang' });
    const approved = await approve(finance);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.data.call).toMatchObject({
      status: 'succeeded',
      result: { status: 'ok', data: { invoiceId: '90012002', amount: 12000, remaining: 24000 } },
    });
    expect(sap.refunds.booked.length).toBe(sapBefore + 2);

    // Above ¥50,000: refused with the rule's reason in the caller's language; nothing booked.
    const ncBefore = nc.refunds.booked.length;
    const denied = await refund(
      globex,
      { invoiceId: 'XSFP2025110003', amount: 80000, reason },
      { 'accept-language': 'zh-CN' },
    );
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      code: 'POLICY_DENIED',
      error: expect.stringContaining('超过 5 万元的退款不由智能体办理'),
      details: { rule: { id: 'refund-over-limit', then: 'deny', failed: false } },
    });
    const deniedEn = await refund(
      acme,
      { invoiceId: '90012003', amount: 50000.01, reason },
      { 'accept-language': 'en' },
    );
    expect(deniedEn.body.error).toContain('refunds above 50,000 CNY are not made by an agent');
    expect(nc.refunds.booked.length).toBe(ncBefore);
    expect(sap.refunds.booked.length).toBe(sapBefore + 2);

    // The check route tells the same, without booking or parking anything.
    const check = async (amount: number) =>
      (
        await gw.api('POST', '/v1/agents/contract_review/tools/create_refund/check', {
          key: acme,
          body: { input: { invoiceId: '90012001', amount, reason } },
        })
      ).body.data;
    expect(await check(5000)).toMatchObject({ rule: null, next: 'run' });
    expect(await check(12000)).toMatchObject({
      rule: { id: 'refund-needs-finance', then: 'require_approval' },
      next: 'park',
      approvers: 1,
      approverGroup: 'finance',
      expiresInMs: 28_800_000,
    });
    expect(await check(80000)).toMatchObject({
      rule: { id: 'refund-over-limit' },
      next: 'refuse',
      code: 'POLICY_DENIED',
    });
    expect(sap.refunds.booked.length).toBe(sapBefore + 2);
  });

  it('answers wrong input types with the readable message, in the requested language', async () => {
    const en = await invoke(acme, 'ops_assistant', 'get_service_status', { input: { service: 42 } });
    expect(en.status).toBe(200);
    expect(en.body).toMatchObject({
      code: 'INVALID_INPUT',
      details: {
        issues: [{ path: 'service', message: "expected string at path 'service', received number" }],
      },
    });
    const zh = await invoke(
      acme,
      'ops_assistant',
      'get_service_status',
      { input: { service: 42 } },
      { 'accept-language': 'zh-CN' },
    );
    expect(zh.body.details.issues[0].message).toBe("路径 'service' 应为 string，实际收到 number");
    const extra = await invoke(acme, 'ops_assistant', 'get_service_status', {
      input: { service: 'payment-api', tenantId: 'globex' },
    });
    expect(extra.body.details.issues[0].message).toContain("unknown field at path 'tenantId'");
    const owned = await invoke(acme, 'ops_assistant', 'get_service_status', {
      input: { service: 'x' },
      tenantId: 'globex',
    });
    expect(owned.status).toBe(400);
    expect(owned.body.details.issues[0].path).toBe('tenantId');
  });

  // The 10 s default itself is proven with a fake clock in libs/toolkit's tool-executor.spec.ts;
  // here, that it reaches the binding a request runs under, and that a binding's shorter limit
  // is what times the call out over HTTP.
  it('times out legacy-batch at the binding limit with the texts of tool-design-rules §A3', async () => {
    const bound = (await gw.api('GET', '/v1/agents/ops_assistant/tools', { key: acme })).body.data;
    expect(bound.find((t: { name: string }) => t.name === 'get_service_status').timeoutMs).toBe(10_000);
    const shortened = (await gw.api('GET', '/v1/agents/ops_assistant/tools', { key: hooli })).body.data;
    expect(shortened[0]).toMatchObject({ name: 'get_service_status', timeoutMs: SHORT_LIMIT_MS });

    const t0 = Date.now();
    const res = await invoke(
      hooli,
      'ops_assistant',
      'get_service_status',
      { input: { service: 'legacy-batch' } },
      { 'accept-language': 'zh-CN' },
    );
    const elapsed = Date.now() - t0;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      error: '工具调用超时',
      code: 'TIMEOUT',
      suggestedAction: '缩小查询范围或重试',
    });
    expect(elapsed).toBeGreaterThanOrEqual(SHORT_LIMIT_MS);
    // The simulated upstream answers legacy-batch after 15 s: only the limit can have ended the call.
    expect(elapsed).toBeLessThan(5_000);
  });

  it('treats tools bound elsewhere exactly like missing ones', async () => {
    const unbound = await invoke(initech, 'ops_assistant', 'read_logs', { input: { service: 'x' } });
    const missing = await invoke(initech, 'ops_assistant', 'no_such_tool', { input: {} });
    expect(unbound.status).toBe(404);
    expect(unbound.body.code).toBe('TOOL_NOT_FOUND');
    expect(missing.body.error.replace('no_such_tool', 'read_logs')).toBe(unbound.body.error);
    const otherType = await gw.api('GET', '/v1/agents/reporting/tools', { key: acme });
    expect(otherType.status).toBe(404);
  });

  it('keys: none is 401, a wrong role is 403, a limited agent key sees only its agent types', async () => {
    expect((await gw.api('GET', '/v1/agents', { key: null })).status).toBe(401);
    expect((await gw.api('GET', '/v1/agents', { key: 'tg_unknown' })).body.code).toBe('UNAUTHENTICATED');
    const auditor = await gw.createKey('auditor', 'acme');
    const forbidden = await invoke(auditor, 'ops_assistant', 'get_service_status', {
      input: { service: 'payment-api' },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('FORBIDDEN');
    const limited = await gw.createKey('agent', 'acme', { agentTypes: ['contract_review'] });
    expect((await gw.api('GET', '/v1/agents', { key: limited })).body.data).toHaveLength(1);
    expect((await gw.api('GET', '/v1/agents/ops_assistant/tools', { key: limited })).status).toBe(404);
  });

  it('revokes keys at once', async () => {
    const created = await gw.api('POST', '/v1/admin/keys', {
      body: { name: 'short-lived', role: 'agent', tenantId: 'acme' },
    });
    const key = created.body.data.key;
    expect((await gw.api('GET', '/v1/agents', { key })).status).toBe(200);
    expect((await gw.api('DELETE', `/v1/admin/keys/${created.body.data.id}`)).status).toBe(200);
    expect((await gw.api('GET', '/v1/agents', { key })).status).toBe(401);
    const list = await gw.api('GET', '/v1/admin/keys');
    expect(list.text).not.toContain(key);
    expect(list.text).not.toContain('keyHash');
  });

  it('answers malformed, oversized and __proto__ bodies with envelopes and stays healthy', async () => {
    const post = (rawBody: string, contentType = 'application/json') =>
      gw.api('POST', '/v1/agents/ops_assistant/tools/get_service_status/invoke', {
        key: acme,
        rawBody,
        headers: { 'content-type': contentType },
      });
    const malformed = await post('{"input": {');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'INVALID_INPUT' });
    const big = await post(JSON.stringify({ input: { service: 'x'.repeat(1_100_000) } }));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
    const proto = await post('{"input":{"service":"x","__proto__":{"admin":true}}}');
    expect(proto.status).toBe(400);
    expect(proto.body.code).toBe('INVALID_INPUT');
    const wrongType = await post('service=x', 'text/plain');
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.code).toBe('INVALID_INPUT');
    for (const r of [malformed, big, proto, wrongType]) {
      expect(r.text).not.toMatch(/at .*\.js:\d+/);
      expect(Object.keys(r.body)).toEqual(expect.arrayContaining(['error', 'code', 'suggestedAction']));
    }
    const unknownRoute = await gw.api('GET', '/v1/nothing-here', { key: acme });
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.body.code).toBe('NOT_FOUND');
    expect((await gw.api('GET', '/healthz', { key: null })).status).toBe(200);
    expect(
      (await invoke(acme, 'ops_assistant', 'get_service_status', { input: { service: 'payment-api' } })).body
        .status,
    ).toBe('ok');
  });

  it('streams snapshots and labels as server-sent events', async () => {
    const res = await fetch(`${gw.url}/v1/agents/reporting/tools/build_report/invoke`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${initech}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ input: { project: 'p1' } }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = (await res.text())
      .trim()
      .split('\n\n')
      .map((block) => {
        const [event, data] = block.split('\n');
        return { event: event!.slice('event: '.length), data: JSON.parse(data!.slice('data: '.length)) };
      });
    expect(events.map((e) => e.event)).toEqual([
      'label',
      'partial',
      'label',
      'partial',
      'label',
      'label',
      'result',
    ]);
    expect(events[0]!.data).toEqual({ phase: 'start', text: '为 p1 生成报告' });
    expect(events.at(-1)!.data).toMatchObject({
      status: 'ok',
      data: { phase: '完成', sections: ['概览', '风险'] },
    });
  });

  it('returns the model projection with ?view=model', async () => {
    const full = await invoke(acme, 'ops_assistant', 'read_logs', {
      input: { service: 'search-api', limit: 5 },
    });
    expect(full.body.data.lines).toHaveLength(5);
    expect(full.body.data.truncated).toBe(true);
    const model = await gw.api('POST', '/v1/agents/ops_assistant/tools/read_logs/invoke?view=model', {
      key: acme,
      body: { input: { service: 'search-api', limit: 5 } },
    });
    expect(model.body.data.type).toBe('text');
  });

  it('serves health, readiness, metrics and OpenAPI', async () => {
    expect((await gw.api('GET', '/readyz', { key: null })).body.data.status).toBe('ready');
    const metrics = await gw.api('GET', '/metrics');
    expect(metrics.text).toContain(
      'toolgate_tool_calls_total{tool="get_service_status",code="OK",face="rest"}',
    );
    const docs = await gw.api('GET', '/docs-json', { key: null });
    expect(docs.body.paths['/v1/agents/{agentType}/tools/{toolName}/invoke']).toBeDefined();
  });
});
