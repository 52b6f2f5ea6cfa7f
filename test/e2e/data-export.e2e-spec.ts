import { makeConfigDir, startTestGateway, waitFor, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
        crossBorder: true,
        crossBorderBasis: null,
        calls: 0,
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
