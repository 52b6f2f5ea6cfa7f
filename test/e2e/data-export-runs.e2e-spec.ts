import { Module } from '@nestjs/common';
import {
  makeConfigDir,
  questionOf,
  startFakeOpenAI,
  startTestGateway,
  toolResultsOf,
  type FakeOpenAI,
  type TestGateway,
} from '@toolgate/testing';
import { defineToolContract, sensitive, ToolkitModule } from '@toolgate/toolkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// Issue 24, ADR 047: the cross-border guard on agent runs' model turns. A turn that carries a
// tool result with values in classified fields sends them to the run's model provider; the
// provider's region is declared on the provider (`models.providers.<name>.region`).

/** An L0 lookup that answers a customer's name (personal) and ID number (sensitive_personal). */
const lookupCustomer = defineToolContract({
  name: 'lookup_customer',
  description: 'Looks a customer up by id (test tool, L0).',
  inputSchema: z.object({ customerId: z.string() }),
  outputSchema: z.object({
    name: sensitive(z.string(), 'personal').nullable(),
    idNumber: sensitive(z.string(), 'sensitive_personal').nullable(),
    tier: z.string(),
  }),
  risk: { level: 'L0' },
}).implement(({ customerId }) =>
  customerId === 'anonymous'
    ? { name: null, idNumber: null, tier: 'gold' }
    : { name: '张三', idNumber: '110101199003074578', tier: 'gold' },
);

/** The same lookup answering nothing classified (for a run that sends no personal information). */
const customerTier = defineToolContract({
  name: 'customer_tier',
  description: 'A customer’s tier (test tool, L0).',
  inputSchema: z.object({ customerId: z.string() }),
  outputSchema: z.object({ tier: z.string() }),
  risk: { level: 'L0' },
}).implement(() => ({ tier: 'gold' }));

@Module({ imports: [ToolkitModule.forFeature([lookupCustomer, customerTier], 'DataExportRunsTools')] })
class DataExportRunsTools {}

const desk = (name: string, provider: string) => `
  ${name}:
    description: ${name}
    model: { provider: ${provider}, name: m }
    maxSteps: 3
    tools: [lookup_customer, customer_tier]`;

const TENANT = `
id: pipl_runs
name: pipl_runs
agentTypes:${desk('abroad_desk', 'abroad')}${desk('sg_desk', 'sg')}${desk('cn_desk', 'cn')}${desk('undeclared_desk', 'undeclared')}
dataProtection:
  recipients:
    sg: { crossBorder: { basis: security_assessment, reference: CAC-2026-77 } }
  records:
    - { tool: lookup_customer, purpose: 客户服务, categories: [identity], recipient: sg, legalBasis: contract }
    - { tool: lookup_customer, purpose: 客户服务, categories: [identity], recipient: cn, legalBasis: contract }
    - { tool: lookup_customer, purpose: 客户服务, categories: [identity], recipient: abroad, legalBasis: contract }
`;

const platform = (url: string) => `
models:
  providers:
    abroad: { baseUrl: '${url}', region: US }
    sg: { baseUrl: '${url}', region: SG }
    cn: { baseUrl: '${url}', region: CN }
    undeclared: { baseUrl: '${url}' }
`;

describe('cross-border guard on agent runs’ model turns (dengbao3 profile)', () => {
  let fake: FakeOpenAI;
  let gw: TestGateway;
  let agent: string;
  let auditAdmin: string;

  beforeAll(async () => {
    // Turn 1 asks for the tool the question names; turn 2 answers with what the tool said.
    fake = await startFakeOpenAI((body) => {
      const results = toolResultsOf(body);
      if (results.length) return { text: `done ${results.length}` };
      const [tool, customerId] = questionOf(body).split(' ');
      return tool === 'none'
        ? { text: 'nothing to look up' }
        : { toolCalls: [{ id: 'c1', name: tool!, arguments: JSON.stringify({ customerId }) }] };
    });
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({ pipl_runs: TENANT }, platform(fake.url)),
        TOOLGATE_COMPLIANCE_PROFILE: 'dengbao3',
      },
      imports: [DataExportRunsTools],
    });
    agent = await gw.createKey('agent', 'pipl_runs');
    auditAdmin = await gw.createKey('audit_admin');
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const run = async (agentType: string, input: string, locale = 'en') => {
    const res = await gw.api('POST', `/v1/agents/${agentType}/runs`, {
      key: agent,
      headers: { 'accept-language': locale },
      body: { input },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const sentFor = (input: string) => fake.requests.filter((r) => questionOf(r) === input).length;
  const records = async () =>
    (await gw.api('GET', '/v1/admin/tenants/pipl_runs/processing-records', { key: auditAdmin })).body
      .data as any[];

  it('fails the run before a turn would carry classified results to a provider abroad without a legal basis', async () => {
    const input = 'lookup_customer c-1';
    const failed = await run('abroad_desk', input);
    expect(failed).toMatchObject({
      status: 'failed',
      error: {
        code: 'DATA_EXPORT_BLOCKED',
        error: expect.stringContaining('abroad (US), outside mainland China'),
        details: { recipient: 'abroad', region: 'US', tools: ['lookup_customer'] },
      },
    });
    // The tool ran; its answer never reached the model: the provider saw the first turn only.
    expect(failed.steps[0].toolCalls[0].status).toBe('succeeded');
    expect(sentFor(input)).toBe(1);
    const zh = await run('abroad_desk', 'lookup_customer c-2', 'zh-CN');
    expect(zh.error.error).toContain('中国大陆以外的接收方 abroad（US）');
    // A provider that declares no region is outside mainland China: fail closed.
    expect((await run('undeclared_desk', 'lookup_customer c-3')).error).toMatchObject({
      code: 'DATA_EXPORT_BLOCKED',
      details: { recipient: 'undeclared', region: null },
    });
  });

  it('lets turns without classified values go to any provider', async () => {
    expect(await run('abroad_desk', 'none')).toMatchObject({
      status: 'completed',
      output: 'nothing to look up',
    });
    expect(await run('abroad_desk', 'customer_tier c-1')).toMatchObject({
      status: 'completed',
      output: 'done 1',
    });
    // Classified fields present but empty (null) carry nothing.
    expect(await run('abroad_desk', 'lookup_customer anonymous')).toMatchObject({ status: 'completed' });
  });

  it('passes a provider abroad with a declared legal basis, and one in mainland China, and counts each like calls', async () => {
    const before = await records();
    const calls = (recipient: string) => before.find((r) => r.recipient === recipient)?.calls ?? 0;
    expect(await run('sg_desk', 'lookup_customer c-4')).toMatchObject({
      status: 'completed',
      output: 'done 1',
    });
    expect(await run('cn_desk', 'lookup_customer c-5')).toMatchObject({
      status: 'completed',
      output: 'done 1',
    });
    expect(await records()).toEqual([
      expect.objectContaining({
        tool: 'lookup_customer',
        recipient: 'sg',
        region: 'SG',
        regionSource: 'model_provider',
        crossBorder: true,
        crossBorderBasis: { basis: 'security_assessment', reference: 'CAC-2026-77' },
        calls: calls('sg') + 1,
      }),
      expect.objectContaining({
        recipient: 'cn',
        region: 'CN',
        regionSource: 'model_provider',
        crossBorder: false,
        calls: calls('cn') + 1,
      }),
      // Refused turns are not counted.
      expect.objectContaining({ recipient: 'abroad', region: 'US', crossBorder: true, calls: 0 }),
    ]);
  });
});

// ADR 048: with the platform's profile off, a tenant file's `compliance: { crossBorderGuard: true }`
// guards that tenant's model turns; another tenant's run sends the same result to the same provider.
describe('a tenant that added the cross-border guard, the platform’s profile off', () => {
  let fake: FakeOpenAI;
  let gw: TestGateway;

  const tenantFile = (id: string, compliance: string) => `
id: ${id}
name: ${id}
agentTypes:${desk('abroad_desk', 'abroad')}
${compliance}`;

  beforeAll(async () => {
    fake = await startFakeOpenAI((body) =>
      toolResultsOf(body).length
        ? { text: 'done' }
        : { toolCalls: [{ id: 'c1', name: 'lookup_customer', arguments: '{"customerId":"c-1"}' }] },
    );
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir(
          {
            runs_guarded: tenantFile('runs_guarded', 'compliance:\n  crossBorderGuard: true\n'),
            runs_open: tenantFile('runs_open', ''),
          },
          platform(fake.url),
        ),
      },
      imports: [DataExportRunsTools],
    });
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  it('fails the guarded tenant’s run and completes the other’s', async () => {
    expect(gw.settings.compliance.profile).toBe('off');
    const run = async (tenantId: string) =>
      (
        await gw.api('POST', '/v1/agents/abroad_desk/runs', {
          key: await gw.createKey('agent', tenantId),
          body: { input: 'look up c-1' },
        })
      ).body.data;
    expect(await run('runs_guarded')).toMatchObject({
      status: 'failed',
      error: { code: 'DATA_EXPORT_BLOCKED', details: { recipient: 'abroad', region: 'US' } },
    });
    expect(await run('runs_open')).toMatchObject({ status: 'completed', output: 'done' });
  });
});
