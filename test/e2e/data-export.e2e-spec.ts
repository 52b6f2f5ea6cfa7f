import { makeConfigDir, startTestGateway, waitFor, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import { startFakeMcpUpstream, type FakeMcpUpstream } from '../support/fake-mcp-upstream.js';
import { TestToolsModule } from './test-tools.js';

// ADR 040, issue 24: processing records (PIPL 第55–56条) and the cross-border guard (第38–40条).
// `record_contact` marks `secretAnswer` sensitive: its calls send a classified field.
const tenant = (id: string, dataProtection: string) => `
id: ${id}
name: ${id}
agentTypes:
  contacts:
    tools:
      - record_contact
      - noop
dataProtection:
${dataProtection}
`;

const BLOCKED = tenant(
  'pipl_blocked',
  `  recipients:
    crm_eu: { region: DE }
  records:
    - { tool: record_contact, purpose: 客户回访, categories: [contact, identity], recipient: crm_eu, legalBasis: consent }`,
);
const ALLOWED = tenant(
  'pipl_allowed',
  `  recipients:
    crm_sg: { region: SG, crossBorder: { basis: standard_contract, reference: SCC-2026-014 } }
    crm_cn: { region: CN }
  records:
    - { tool: record_contact, purpose: 客户回访, categories: [contact], recipient: crm_sg, legalBasis: contract }
    - { tool: record_contact, purpose: 客户档案, categories: [contact], recipient: crm_cn, legalBasis: contract }`,
);

describe('cross-border guard and processing records (dengbao3 profile)', () => {
  let gw: TestGateway;
  let auditAdmin: string;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({ pipl_blocked: BLOCKED, pipl_allowed: ALLOWED }),
        TOOLGATE_COMPLIANCE_PROFILE: 'dengbao3',
      },
      imports: [TestToolsModule],
    });
    for (const t of ['pipl_blocked', 'pipl_allowed']) keys[t] = await gw.createKey('agent', t);
    // The trail and the processing records are the audit admin's to read under the profile (ADR 039).
    auditAdmin = await gw.createKey('audit_admin');
  });
  afterAll(async () => {
    await gw?.close();
  });

  const contact = (tenantId: string, locale = 'en') =>
    gw.api('POST', '/v1/agents/contacts/tools/record_contact/invoke', {
      key: keys[tenantId],
      headers: { 'accept-language': locale },
      body: {
        input: {
          name: '张三',
          phone: '13812345678',
          idNumber: '110101199003074578',
          bankCard: '6222020200112233445',
          email: 'zhang@example.com',
          password: 'x',
          secretAnswer: '母亲的名字',
        },
      },
    });
  const records = async (tenantId: string) =>
    (await gw.api('GET', `/v1/admin/tenants/${tenantId}/processing-records`, { key: auditAdmin })).body.data;

  it('refuses a call that would send a classified field outside mainland China without a legal basis', async () => {
    const res = await contact('pipl_blocked');
    expect(res.status, res.text).toBe(403);
    expect(res.body).toMatchObject({
      code: 'DATA_EXPORT_BLOCKED',
      error: expect.stringContaining('crm_eu (DE), outside mainland China'),
      suggestedAction: expect.stringContaining('dataProtection.recipients.crm_eu.crossBorder'),
      details: { recipient: 'crm_eu', region: 'DE' },
    });
    const zh = await contact('pipl_blocked', 'zh-CN');
    expect(zh.body.error).toContain('中国大陆以外的接收方 crm_eu（DE）');
    // The refusal is in the tenant's trail, as every refusal of an authenticated caller (ADR 033).
    // Recorded beside the answer, not before it: waited for (30 s is a hang guard).
    const denied = await waitFor(
      async () => {
        const items = (
          await gw.api(
            'GET',
            '/v1/audit/events?tenantId=pipl_blocked&event=access_denied&code=DATA_EXPORT_BLOCKED',
            { key: auditAdmin },
          )
        ).body.data.items as any[];
        return items.length === 2 && items;
      },
      { timeoutMs: 30_000, what: 'both refusals in the trail' },
    );
    expect(denied[0]).toMatchObject({
      event: 'access_denied',
      tool: 'record_contact',
      code: 'DATA_EXPORT_BLOCKED',
    });
    // A call of the same tenant without classified fields is not concerned.
    const noop = await gw.api('POST', '/v1/agents/contacts/tools/noop/invoke', {
      key: keys.pipl_blocked,
      body: { input: {} },
    });
    expect(noop.body.status).toBe('ok');
    expect(await records('pipl_blocked')).toEqual([
      {
        tool: 'record_contact',
        purpose: '客户回访',
        categories: ['contact', 'identity'],
        recipient: 'crm_eu',
        legalBasis: 'consent',
        region: 'DE',
        regionSource: 'recipients',
        crossBorder: true,
        crossBorderBasis: null,
        calls: 0,
        lastCountedAt: null,
      },
    ]);
  });

  it('passes a call whose recipient abroad has a declared legal basis, and counts it per recipient', async () => {
    for (let i = 0; i < 2; i++) expect((await contact('pipl_allowed')).body.status).toBe('ok');
    expect(await records('pipl_allowed')).toEqual([
      expect.objectContaining({
        recipient: 'crm_sg',
        region: 'SG',
        crossBorder: true,
        crossBorderBasis: { basis: 'standard_contract', reference: 'SCC-2026-014' },
        calls: 2,
      }),
      expect.objectContaining({ recipient: 'crm_cn', region: 'CN', crossBorder: false, calls: 2 }),
    ]);
  });

  it('shows a tenant’s records to its own admins and auditors only', async () => {
    const other = await gw.createKey('tenant_admin', 'pipl_blocked');
    const res = await gw.api('GET', '/v1/admin/tenants/pipl_allowed/processing-records', { key: other });
    expect(res.status).toBe(404);
    const own = await gw.api('GET', '/v1/admin/tenants/pipl_blocked/processing-records', { key: other });
    expect(own.status).toBe(200);
    expect(
      (await gw.api('GET', '/v1/admin/tenants/pipl_allowed/processing-records', { key: keys.pipl_allowed }))
        .status,
    ).toBe(403);
  });

  // ADR 048: a tenant file adds to the platform's profile, never takes from it.
  it('refuses a tenant file that would turn off a part of the platform’s profile, or a platform-only part', async () => {
    const systemAdmin = await gw.createKey('system_admin');
    const doc = parse(
      (await gw.api('GET', '/v1/admin/tenants/pipl_blocked/export', { key: systemAdmin })).text,
    );
    for (const [compliance, said] of [
      [
        { crossBorderGuard: false },
        'turns crossBorderGuard on for every tenant: a tenant file may only add parts',
      ],
      [
        { profile: 'off' },
        "the platform's compliance.profile is dengbao3: a tenant file may add to it, never turn it off",
      ],
      [{ cryptoSuite: 'sha' }, 'cryptoSuite is platform-wide and cannot be set per tenant'],
    ] as const) {
      const res = await gw.api('POST', '/v1/admin/tenants/pipl_blocked/import', {
        key: systemAdmin,
        body: { yaml: stringify({ ...doc, compliance }) },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('INVALID_INPUT');
      expect(res.text).toContain(said);
    }
    // Saying again what the platform says is no loosening.
    const same = await gw.api('POST', '/v1/admin/tenants/pipl_blocked/import', {
      key: systemAdmin,
      body: { yaml: stringify({ ...doc, compliance: { profile: 'dengbao3' } }) },
    });
    expect(same.status, same.text).toBe(200);
    expect((await contact('pipl_blocked')).body.code).toBe('DATA_EXPORT_BLOCKED');
  });

  it('exports the processing records as CSV for Excel, defused, on the record, to the listing’s roles only', async () => {
    const systemAdmin = await gw.createKey('system_admin');
    const doc = parse(
      (await gw.api('GET', '/v1/admin/tenants/pipl_allowed/export', { key: systemAdmin })).text,
    );
    doc.dataProtection.records.push({
      tool: 'noop',
      purpose: '=HYPERLINK("http://evil.example","点击")',
      categories: ['contact'],
      recipient: 'crm_cn',
      legalBasis: 'contract',
    });
    const saved = await gw.api('POST', '/v1/admin/tenants/pipl_allowed/import', {
      key: systemAdmin,
      body: { yaml: stringify(doc) },
    });
    expect(saved.status, saved.text).toBe(200);

    const path = '/v1/admin/tenants/pipl_allowed/processing-records/export';
    const res = await gw.api('GET', path, { key: auditAdmin });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="toolgate-processing-records-pipl_allowed-.*\.csv"$/,
    );
    // The bytes start with the UTF-8 BOM (a decoder, as the test client's, drops it from the text).
    const raw = await fetch(`${gw.url}${path}`, { headers: { authorization: `Bearer ${auditAdmin}` } });
    const bytes = Buffer.from(await raw.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(header).toBe(
      'tool,purpose,categories,recipient,region,regionSource,crossBorder,crossBorderBasis,crossBorderReference,legalBasis,calls,lastCountedAt',
    );
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(
      /^record_contact,客户回访,contact,crm_sg,SG,recipients,true,standard_contract,SCC-2026-014,contract,2,\d{4}-/,
    );
    expect(rows[1]).toMatch(/^record_contact,客户档案,contact,crm_cn,CN,recipients,false,,,contract,2,/);
    // The formula is text: an apostrophe in front, quoted for its comma and quotes.
    expect(rows[2]).toBe(
      `noop,"'=HYPERLINK(""http://evil.example"",""点击"")",contact,crm_cn,CN,recipients,false,,,contract,0,`,
    );

    // Recorded before it was sent, in the audit admin's chain.
    const exported = (
      await gw.api('GET', '/v1/audit/events?tenantId=_platform&event=processing_records_exported', {
        key: auditAdmin,
      })
    ).body.data.items;
    expect(exported[0]).toMatchObject({
      event: 'processing_records_exported',
      details: {
        outcome: 'success',
        role: 'audit_admin',
        exportedTenantId: 'pipl_allowed',
        format: 'csv',
        records: 3,
      },
    });

    // The listing's roles, and no one else: the tenant's agent, another tenant's admin, and under
    // the profile the platform admin, are refused as they are for the listing.
    for (const key of [keys.pipl_allowed, await gw.createKey('tenant_admin', 'pipl_blocked'), undefined]) {
      const list = await gw.api('GET', '/v1/admin/tenants/pipl_allowed/processing-records', { key });
      const csv = await gw.api('GET', path, { key });
      expect(csv.status).toBe(list.status);
      expect(csv.status).toBeGreaterThanOrEqual(403);
      expect(csv.body.code).toBe(list.body.code);
    }
  });
});

describe('without the profile: counted, never refused', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      env: { TOOLGATE_CONFIG_DIR: makeConfigDir({ pipl_blocked: BLOCKED }) },
      imports: [TestToolsModule],
    });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('runs a call sending a classified field abroad without a basis, and counts it', async () => {
    const key = await gw.createKey('agent', 'pipl_blocked');
    const res = await gw.api('POST', '/v1/agents/contacts/tools/record_contact/invoke', {
      key,
      body: {
        input: {
          name: 'n',
          phone: 'p',
          idNumber: 'i',
          bankCard: 'b',
          email: 'e',
          password: 'x',
          secretAnswer: 's',
        },
      },
    });
    expect(res.body.status).toBe('ok');
    const [record] = (await gw.api('GET', '/v1/admin/tenants/pipl_blocked/processing-records')).body.data;
    expect(record).toMatchObject({
      recipient: 'crm_eu',
      crossBorder: true,
      crossBorderBasis: null,
      calls: 1,
    });
  });
});

// ADR 047: the region is declared on the record the data goes to — a connector's block, an
// upstream's registration, a model provider (data-export-runs.e2e-spec.ts) — and read from there.
const REGIONS = `
id: pipl_regions
name: pipl_regions
connectors:
  ops_api: { baseUrl: 'https://ops.example.com', token: t, region: DE }
agentTypes:
  contacts:
    tools:
      - record_contact
dataProtection:
  recipients:
    # Declared home here, abroad on the connector: the connector's DE counts (nothing moves a recipient home).
    ops_api: { region: CN }
  records:
    - { tool: record_contact, purpose: 工单, categories: [contact], recipient: ops_api, legalBasis: contract }
`;

describe('regions declared on connectors and upstreams (dengbao3 profile)', () => {
  let gw: TestGateway;
  let upstream: FakeMcpUpstream;
  let agent: string;
  let admin: string;

  beforeAll(async () => {
    upstream = await startFakeMcpUpstream({
      find_person: {
        description: 'Finds a person by ID number.',
        // Classified at the source: the gateway reads x-toolgate-pi from the imported schema.
        inputSchema: { idNumber: z.string().meta({ 'x-toolgate-pi': 'sensitive_personal' }) },
        handler: () => ({ content: [{ type: 'text', text: 'found' }] }),
      },
    });
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({ pipl_regions: REGIONS }),
        TOOLGATE_COMPLIANCE_PROFILE: 'dengbao3',
        TOOLGATE_UPSTREAM_REFRESH_MS: '600000',
      },
      imports: [TestToolsModule],
    });
    agent = await gw.createKey('agent', 'pipl_regions');
    admin = await gw.createKey('tenant_admin', 'pipl_regions');
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
  });

  it('reads a connector’s region from its block in the tenant file', async () => {
    const res = await gw.api('POST', '/v1/agents/contacts/tools/record_contact/invoke', {
      key: agent,
      body: {
        input: {
          name: 'n',
          phone: 'p',
          idNumber: 'i',
          bankCard: 'b',
          email: 'e',
          password: 'x',
          secretAnswer: 's',
        },
      },
    });
    expect(res.status, res.text).toBe(403);
    expect(res.body).toMatchObject({
      code: 'DATA_EXPORT_BLOCKED',
      details: { recipient: 'ops_api', region: 'DE' },
    });
    const records = (await gw.api('GET', '/v1/admin/tenants/pipl_regions/processing-records', { key: admin }))
      .body.data;
    expect(records).toEqual([
      expect.objectContaining({
        recipient: 'ops_api',
        region: 'DE',
        regionSource: 'connector',
        crossBorder: true,
      }),
    ]);
  });

  it('guards an imported tool by its upstream’s declared region, with no processing record naming it', async () => {
    const base = '/v1/admin/tenants/pipl_regions/upstreams';
    const bad = await gw.api('POST', base, {
      key: admin,
      body: { name: 'people', url: upstream.url, region: 'us' },
    });
    expect(bad.status).toBe(400);
    const created = await gw.api('POST', base, {
      key: admin,
      body: { name: 'people', url: upstream.url, region: 'US' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.upstream.region).toBe('US');
    const imported = await gw.api('POST', `${base}/people/import`, {
      key: admin,
      body: { tools: [{ name: 'find_person', riskLevel: 'L1' }], bindTo: ['contacts'] },
    });
    expect(imported.status, imported.text).toBe(200);
    const call = (idNumber: string) =>
      gw.api('POST', '/v1/agents/contacts/tools/people__find_person/invoke', {
        key: agent,
        body: { input: { idNumber } },
      });
    const refused = await call('110101199003074578');
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'DATA_EXPORT_BLOCKED',
      details: { recipient: 'people', region: 'US' },
    });
    expect(upstream.calls).toEqual([]);
    const listed = (await gw.api('GET', base, { key: admin })).body.data;
    expect(listed).toEqual([expect.objectContaining({ name: 'people', region: 'US' })]);

    // Declared home afterwards: the next call reads the new region and goes through, counted.
    const moved = await gw.api('PATCH', `${base}/people`, { key: admin, body: { region: 'CN' } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data.upstream.region).toBe('CN');
    const passed = await call('110101199003074578');
    expect(passed.body.status, passed.text).toBe('ok');
    expect(upstream.calls).toHaveLength(1);
    const changed = (
      await gw.api('GET', '/v1/audit/events?tenantId=pipl_regions&event=upstream_changed', {
        key: await gw.createKey('audit_admin'),
      })
    ).body.data.items as any[];
    expect(changed.map((e) => e.details)).toContainEqual(
      expect.objectContaining({
        kind: 'server_changed',
        upstream: 'people',
        before: { region: 'US' },
        after: { region: 'CN' },
      }),
    );
  });
});
