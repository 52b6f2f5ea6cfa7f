import { startTestGateway, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

describe('admin API', () => {
  let gw: TestGateway;
  let acmeAdmin: string;
  let acmeAgent: string;
  let auditor: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    acmeAdmin = await gw.createKey('tenant_admin', 'acme');
    acmeAgent = await gw.createKey('agent', 'acme');
    auditor = await gw.createKey('auditor');
  });
  afterAll(() => gw?.close());

  const bindings = async (key?: string) =>
    (await gw.api('GET', '/v1/admin/tenants/acme/bindings', { key })).body.data;
  const ops = async (key?: string) => (await bindings(key)).find((b: any) => b.agentType === 'ops_assistant');
  const put = (body: unknown, key?: string, agentType = 'ops_assistant', tenant = 'acme') =>
    gw.api('PUT', `/v1/admin/tenants/${tenant}/agents/${agentType}/bindings`, { key, body });

  it('lists the tool catalog with implementations, policy, schemas and who binds what', async () => {
    const tools = (await gw.api('GET', '/v1/admin/tools')).body.data;
    const erp = tools.find((t: any) => t.name === 'query_supplier_delivery');
    expect(erp.implementations.map((i: any) => i.name).sort()).toEqual(['sap', 'yonyou_nc']);
    expect(erp.inputSchema.properties.supplierId).toBeDefined();
    expect(erp.boundBy).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tenantId: 'acme', agentType: 'contract_review', implementation: 'sap' }),
        expect.objectContaining({
          tenantId: 'globex',
          agentType: 'contract_review',
          implementation: 'yonyou_nc',
        }),
      ]),
    );
    const scoped = (await gw.api('GET', '/v1/admin/tools', { key: acmeAdmin })).body.data;
    expect(scoped.flatMap((t: any) => t.boundBy).every((b: any) => b.tenantId === 'acme')).toBe(true);
    expect((await gw.api('GET', '/v1/admin/tools', { key: auditor })).status).toBe(403);
  });

  it('lists, creates and shows tenants within the key’s scope', async () => {
    expect((await gw.api('GET', '/v1/admin/tenants')).body.data.map((t: any) => t.id)).toEqual([
      'acme',
      'globex',
    ]);
    expect(
      (await gw.api('GET', '/v1/admin/tenants', { key: acmeAdmin })).body.data.map((t: any) => t.id),
    ).toEqual(['acme']);
    const created = await gw.api('POST', '/v1/admin/tenants', {
      body: { id: 'hooli', name: 'Hooli', locale: 'en' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ id: 'hooli', agentTypes: [] });
    expect(
      (await gw.api('POST', '/v1/admin/tenants', { body: { id: 'hooli', name: 'again' } })).body.code,
    ).toBe('ALREADY_EXISTS');
    expect(
      (await gw.api('POST', '/v1/admin/tenants', { key: acmeAdmin, body: { id: 'mine', name: 'x' } })).status,
    ).toBe(403);
    expect((await gw.api('POST', '/v1/admin/tenants', { body: { id: 'Bad Id', name: 'x' } })).status).toBe(
      400,
    );
    expect((await gw.api('GET', '/v1/admin/tenants/globex', { key: acmeAdmin })).status).toBe(404);
    const acme = (await gw.api('GET', '/v1/admin/tenants/acme', { key: acmeAdmin })).body.data;
    expect(acme.connectors).toEqual(['ops_api', 'sap']);
    expect(JSON.stringify(acme)).not.toContain('demo-sap-password');
  });

  it('saves bindings under optimistic concurrency and the tighten-only rule, and agents see it at once', async () => {
    const current = await ops(acmeAdmin);
    expect(current).toMatchObject({ version: 1 });
    const preview = await gw.api('POST', '/v1/admin/tenants/acme/agents/ops_assistant/bindings/preview', {
      key: acmeAdmin,
      body: { tools: ['get_service_status', { name: 'restart_service' }] },
    });
    expect(preview.body.data.diff).toEqual({ added: [], removed: ['read_logs'], changed: [] });
    expect(preview.body.data.effective.map((t: any) => [t.name, t.approval])).toEqual([
      ['get_service_status', 'never'],
      ['restart_service', 'always'],
    ]);

    const saved = await put({ version: 1, tools: ['get_service_status', 'restart_service'] }, acmeAdmin);
    expect(saved.status).toBe(200);
    expect(saved.body.data.version).toBe(2);
    const tools = (await gw.api('GET', '/v1/agents/ops_assistant/tools', { key: acmeAgent })).body.data.map(
      (t: any) => t.name,
    );
    expect(tools).toEqual(['get_service_status', 'restart_service']);

    const stale = await put({ version: 1, tools: ['get_service_status'] }, acmeAdmin);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'VERSION_CONFLICT', details: { currentVersion: 2 } });

    const looser = await put(
      { version: 2, tools: ['get_service_status', { name: 'read_logs', timeoutMs: 60_000 }] },
      acmeAdmin,
    );
    expect(looser.status).toBe(400);
    expect(looser.body.details.issues[0]).toMatchObject({
      path: 'tools.1.timeoutMs',
      message: expect.stringContaining('read_logs'),
    });
    const lessApproval = await put(
      { version: 2, tools: [{ name: 'restart_service', approval: 'never' }] },
      acmeAdmin,
    );
    expect(lessApproval.body.details.issues[0]).toMatchObject({ path: 'tools.0.approval' });
    const noImpl = await put(
      { version: 2, tools: ['query_supplier_delivery'] },
      acmeAdmin,
      'contract_review',
    );
    expect(noImpl.status).toBe(400);
    expect((await put({ version: 2, tools: ['no_such_tool'] }, acmeAdmin)).status).toBe(400);

    const tighter = await put(
      {
        version: 2,
        tools: [
          'get_service_status',
          { name: 'read_logs', timeoutMs: 5_000, approval: 'once' },
          'restart_service',
        ],
      },
      acmeAdmin,
    );
    expect(tighter.body.data.version).toBe(3);
    const readLogs = (
      await gw.api('GET', '/v1/agents/ops_assistant/tools', { key: acmeAgent })
    ).body.data.find((t: any) => t.name === 'read_logs');
    expect(readLogs).toMatchObject({ timeoutMs: 5_000, approval: 'once', risk: { approvalRequired: true } });
    expect((await put({ version: 3, tools: [] }, acmeAdmin, 'ops_assistant', 'globex')).status).toBe(404);
  });

  it('keeps history with who, when and the diff, and audits every change', async () => {
    const history = (
      await gw.api('GET', '/v1/admin/tenants/acme/bindings/history?agentType=ops_assistant', {
        key: acmeAdmin,
      })
    ).body.data;
    expect(history.map((h: any) => [h.version, h.kind])).toEqual([
      [3, 'update'],
      [2, 'update'],
      [1, 'import'],
    ]);
    expect(history[1].diff).toMatchObject({ removed: ['read_logs'] });
    expect(history[0].changedBy).toMatch(/^key_/);
    const events = (
      await gw.api('GET', '/v1/audit/events?tenantId=acme&event=binding_changed', { key: auditor })
    ).body.data.items;
    expect(events.filter((e: any) => e.details.kind === 'update')).toHaveLength(2);
  });

  it('exports a tenant as YAML, and importing the export changes nothing', async () => {
    const exported = await gw.api('GET', '/v1/admin/tenants/acme/export', { key: acmeAdmin });
    expect(exported.headers.get('content-type')).toContain('yaml');
    const doc = parse(exported.text);
    expect(doc).toMatchObject({
      id: 'acme',
      connectors: { sap: { password: '${TOOLGATE_T_ACME__SAP_PASSWORD:-demo-sap-password}' } },
    });
    const noop = await gw.api('POST', '/v1/admin/tenants/acme/import', {
      key: acmeAdmin,
      body: { yaml: exported.text },
    });
    expect(noop.body.data).toMatchObject({ unchanged: true, changed: [] });
    expect((await ops(acmeAdmin)).version).toBe(3);

    doc.agentTypes.ops_assistant.tools = ['get_service_status'];
    const { stringify } = await import('yaml');
    const changed = await gw.api('POST', '/v1/admin/tenants/acme/import', {
      key: acmeAdmin,
      body: { yaml: stringify(doc) },
    });
    expect(changed.body.data.changed).toEqual(['ops_assistant']);
    expect((await ops(acmeAdmin)).tools).toEqual([{ name: 'get_service_status' }]);
    const again = await gw.api('GET', '/v1/admin/tenants/acme/export', { key: acmeAdmin });
    expect(
      (await gw.api('POST', '/v1/admin/tenants/acme/import', { key: acmeAdmin, body: { yaml: again.text } }))
        .body.data.unchanged,
    ).toBe(true);
    const wrong = await gw.api('POST', '/v1/admin/tenants/acme/import', {
      key: acmeAdmin,
      body: { yaml: 'id: globex\nname: x\n' },
    });
    expect(wrong.status).toBe(400);
  });

  it('carries agent types’ run settings: defaults, edits by tenant admins, sub-agent rules, export/import', async () => {
    const { stringify } = await import('yaml');
    const review = (await bindings(acmeAdmin)).find((b: any) => b.agentType === 'contract_review');
    // The demo tenant file names no model (the platform default) and gives zh-CN instructions.
    expect(review.run).toMatchObject({
      model: null,
      instructions: expect.stringContaining('合同审查助手'),
      maxSteps: 4,
      deadlineMs: 120_000,
      subAgents: [],
    });
    const before = await ops(acmeAdmin);
    const run = {
      model: { provider: 'default', name: 'qwen-plus' },
      instructions: '你是 ACME 的运维助手。先查看状态与日志，再决定是否重启。',
      maxSteps: 12,
      tokenBudget: 40_000,
      subAgents: ['contract_review'],
    };
    const saved = await put({ version: before.version, tools: before.tools, run }, acmeAdmin);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({
      version: before.version + 1,
      description: before.description,
      run: { ...run, deadlineMs: 120_000, maxParallelToolCalls: 4 },
    });
    // Without `run` an update keeps the run settings, like the description.
    const kept = await put({ version: before.version + 1, tools: ['get_service_status'] }, acmeAdmin);
    expect(kept.body.data.run).toEqual(saved.body.data.run);
    const version = kept.body.data.version;
    expect((await gw.api('GET', '/v1/admin/tenants/acme', { key: acmeAdmin })).body.data.agentTypes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ agentType: 'ops_assistant', run: kept.body.data.run }),
      ]),
    );

    const refused = async (body: Record<string, unknown>, agentType = 'ops_assistant') => {
      const res = await put({ version, tools: [], ...body }, acmeAdmin, agentType);
      expect(res.status).toBe(400);
      return res.body.details.issues as { path: string; message: string }[];
    };
    expect(await refused({ run: { subAgents: ['ops_assistant', 'nobody'] } })).toEqual([
      { path: 'run.subAgents.0', message: 'an agent type cannot be its own sub-agent' },
      { path: 'run.subAgents.1', message: '"nobody" is not an agent type of this tenant' },
    ]);
    const cycle = await refused(
      { version: review.version, run: { subAgents: ['ops_assistant'] } },
      'contract_review',
    );
    expect(cycle[0]!.message).toContain('leads back: contract_review → ops_assistant → contract_review');
    expect((await refused({ run: { maxSteps: 51 } }))[0]!.path).toContain('maxSteps');
    expect((await refused({ run: { deadlineMs: 500 } }))[0]!.path).toContain('deadlineMs');
    // A model names a platform provider, never where it is or which key it sends.
    await refused({ run: { model: { provider: 'default', name: 'x', baseUrl: 'https://evil.example' } } });
    await refused({ run: { model: { provider: 'https://evil.example', name: 'x' } } });
    const preview = await gw.api('POST', '/v1/admin/tenants/acme/agents/ops_assistant/bindings/preview', {
      key: acmeAdmin,
      body: { tools: [], run: { subAgents: ['nobody'] } },
    });
    expect(preview.body.data.problems).toEqual([
      { path: 'run.subAgents.0', message: '"nobody" is not an agent type of this tenant' },
    ]);
    expect((await ops(acmeAdmin)).version).toBe(version);

    // The export keeps them; importing it changes nothing; a new pair of agent types imports in any order.
    const exported = await gw.api('GET', '/v1/admin/tenants/acme/export', { key: acmeAdmin });
    const doc = parse(exported.text);
    expect(doc.agentTypes.ops_assistant).toMatchObject({
      model: run.model,
      instructions: run.instructions,
      maxSteps: 12,
      tokenBudget: 40_000,
      subAgents: ['contract_review'],
    });
    expect(doc.agentTypes.ops_assistant.deadlineMs).toBeUndefined();
    const importYaml = (yaml: string) =>
      gw.api('POST', '/v1/admin/tenants/acme/import', { key: acmeAdmin, body: { yaml } });
    expect((await importYaml(exported.text)).body.data).toMatchObject({ unchanged: true });
    doc.agentTypes.ops_assistant.instructions = '只读排查，不做重启。';
    doc.agentTypes.triage = { instructions: '分派问题。', subAgents: ['log_digest'] };
    doc.agentTypes.log_digest = { tools: ['read_logs'], maxSteps: 3 };
    const changed = await importYaml(stringify(doc));
    expect(changed.status).toBe(200);
    expect(changed.body.data.changed.sort()).toEqual(['log_digest', 'ops_assistant', 'triage']);
    const after = await bindings(acmeAdmin);
    expect(after.find((b: any) => b.agentType === 'ops_assistant').run.instructions).toBe(
      '只读排查，不做重启。',
    );
    expect(after.find((b: any) => b.agentType === 'triage').run.subAgents).toEqual(['log_digest']);
    doc.agentTypes.log_digest.subAgents = ['triage'];
    const cyclic = await importYaml(stringify(doc));
    expect(cyclic.status).toBe(400);
    expect(JSON.stringify(cyclic.body.details.issues)).toContain('agentTypes.log_digest.subAgents[0]');
  });

  it('lets a tenant admin manage its own tenant’s keys only', async () => {
    const approver = await gw.api('POST', '/v1/admin/keys', {
      key: acmeAdmin,
      body: { name: 'approver', role: 'approver' },
    });
    expect(approver.status).toBe(201);
    expect(approver.body.data).toMatchObject({ role: 'approver', tenantId: 'acme' });
    expect(
      (
        await gw.api('POST', '/v1/admin/keys', {
          key: acmeAdmin,
          body: { name: 'x', role: 'platform_admin' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await gw.api('POST', '/v1/admin/keys', {
          key: acmeAdmin,
          body: { name: 'x', role: 'agent', tenantId: 'globex' },
        })
      ).status,
    ).toBe(403);
    const list = (await gw.api('GET', '/v1/admin/keys', { key: acmeAdmin })).body.data;
    expect(list.every((k: any) => k.tenantId === 'acme')).toBe(true);
    const globexKey = (
      await gw.api('POST', '/v1/admin/keys', { body: { name: 'g', role: 'agent', tenantId: 'globex' } })
    ).body.data;
    expect((await gw.api('DELETE', `/v1/admin/keys/${globexKey.id}`, { key: acmeAdmin })).status).toBe(404);
    expect((await gw.api('GET', '/v1/me', { key: acmeAdmin })).body.data).toMatchObject({
      role: 'tenant_admin',
      tenantId: 'acme',
    });
  });

  it('serves the overview numbers', async () => {
    await put(
      { version: (await ops(acmeAdmin)).version, tools: ['get_service_status', 'restart_service'] },
      acmeAdmin,
    );
    await gw.api('POST', '/v1/agents/ops_assistant/tools/restart_service/invoke', {
      key: acmeAgent,
      body: { input: { service: 'x', reason: 'for the overview only' } },
    });
    const stats = (await gw.api('GET', '/v1/admin/stats?bucketMinutes=1', { key: acmeAdmin })).body.data;
    expect(stats).toMatchObject({ bucketMinutes: 1, pendingApprovals: 1, incompleteCalls: 0 });
    expect(Array.isArray(stats.buckets)).toBe(true);
  });
});
