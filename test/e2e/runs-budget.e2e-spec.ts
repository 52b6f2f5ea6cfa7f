import {
  type FakeChatRequest,
  type FakeOpenAI,
  type FakeReply,
  questionOf,
  startFakeOpenAI,
  startTestGateway,
  type TestGateway,
  toolResultsOf,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { DEFAULT_QUOTAS_OPTIONS } from '@toolgate/quotas';

const toolResults = toolResultsOf;

/** ACME's tokens per UTC day in this test. */
const ACME_PER_DAY = 100;

/** 00:00 UTC after now. */
const nextUtcMidnight = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
};

/**
 * A tenant's model tokens per UTC day (`quotas: [{tokensPerDay}]`), over a real OpenAI wire that
 * reports usage, on two gateways sharing one database: the day's count is the database's, so what
 * one gateway's runs spend, the other refuses.
 */
describe("a tenant's daily token budget", () => {
  let fake: FakeOpenAI;
  let gwA: TestGateway;
  let gwB: TestGateway;
  let acmeAgent: string;
  let globexAgent: string;
  let globexAdmin: string;
  const scripts = new Map<string, (body: FakeChatRequest) => FakeReply>();

  beforeAll(async () => {
    fake = await startFakeOpenAI((body) => scripts.get(questionOf(body))?.(body) ?? { text: 'ok' });
    const env = {
      TOOLGATE_MODEL_BASE_URL: fake.url,
      TOOLGATE_MODEL_API_KEY: 'sk-test-secret',
      TOOLGATE_MODEL: 'default/test-model',
    };
    gwA = await startTestGateway({ env });
    gwB = await startTestGateway({ env, db: gwA.db });
    acmeAgent = await gwA.createKey('agent', 'acme');
    globexAgent = await gwA.createKey('agent', 'globex');
    globexAdmin = await gwA.createKey('tenant_admin', 'globex');
  });
  afterAll(async () => {
    await gwB?.close();
    await gwA?.close();
    await fake?.close();
  });

  const start = (gw: TestGateway, key: string, input: string, headers: Record<string, string> = {}) =>
    gw.api('POST', '/v1/agents/ops_assistant/runs', { key, body: { input }, headers });

  it('is set in the tenant file through the admin API, and survives export and import', async () => {
    const exported = await gwA.api('GET', '/v1/admin/tenants/acme/export');
    const doc = parse(exported.text);
    expect(doc.quotas).toBeUndefined();
    doc.quotas = [{ tokensPerDay: ACME_PER_DAY }];
    const imported = await gwA.api('POST', '/v1/admin/tenants/acme/import', {
      body: { yaml: stringify(doc) },
    });
    expect(imported.body.data).toMatchObject({ changed: ['tenant'] });
    const tenant = await gwA.api('GET', '/v1/admin/tenants/acme');
    expect(tenant.body.data.settings.quotas).toEqual([{ tokensPerDay: ACME_PER_DAY }]);

    const again = await gwA.api('GET', '/v1/admin/tenants/acme/export');
    expect(parse(again.text).quotas).toEqual([{ tokensPerDay: ACME_PER_DAY }]);
    const noop = await gwA.api('POST', '/v1/admin/tenants/acme/import', { body: { yaml: again.text } });
    expect(noop.body.data.unchanged).toBe(true);

    const bad = await gwA.api('POST', '/v1/admin/tenants/acme/import', {
      body: { yaml: stringify({ ...doc, quotas: [{ tokensPerDay: -5 }] }) },
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('quotas[0].tokensPerDay');
  });

  it('stops a run before its next model turn once the day is spent', async () => {
    // 70 tokens, then 50: the day (100) is spent after the second turn, before the third.
    scripts.set('check twice', (body) =>
      toolResults(body).length >= 2
        ? { text: 'never asked' }
        : {
            toolCalls: [
              {
                id: `c${toolResults(body).length}`,
                name: 'get_service_status',
                arguments: '{"service":"payment-api"}',
              },
            ],
            usage: toolResults(body).length
              ? { inputTokens: 40, outputTokens: 10 }
              : { inputTokens: 60, outputTokens: 10 },
          },
    );
    const res = await start(gwA, acmeAgent, 'check twice');
    expect(res.status).toBe(200);
    const run = res.body.data;
    expect(run).toMatchObject({
      status: 'failed',
      usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120 },
      error: {
        code: 'BUDGET_EXCEEDED',
        details: { quota: { tokensPerDay: ACME_PER_DAY }, tokensToday: 120 },
      },
    });
    expect(run.error.suggestedAction).toContain('tokensPerDay');
    expect(run.steps).toHaveLength(2);
    expect(run.steps.every((s: any) => s.toolCalls[0].status === 'succeeded')).toBe(true);
    expect(fake.requests.filter((r) => questionOf(r) === 'check twice')).toHaveLength(2);
    // What GET /v1/runs/:id reads is the same.
    const read = await gwB.api('GET', `/v1/runs/${run.runId}`, { key: acmeAgent });
    expect(read.body.data).toMatchObject({ status: 'failed', usage: { totalTokens: 120 } });
  });

  it('refuses a new run of the tenant with 429 BUDGET_EXCEEDED on every gateway, until 00:00 UTC', async () => {
    scripts.set('one more', () => ({ text: 'should not run', usage: { inputTokens: 1, outputTokens: 1 } }));
    const asked = fake.requests.length;
    for (const gw of [gwA, gwB]) {
      const refused = await start(gw, acmeAgent, 'one more');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({
        code: 'BUDGET_EXCEEDED',
        details: {
          quota: { tokensPerDay: ACME_PER_DAY },
          tokensToday: 120,
          resetAt: nextUtcMidnight().toISOString(),
        },
      });
      expect(refused.body.error).toContain('acme');
      expect(refused.body.suggestedAction).toContain('tokensPerDay');
      const retryAfter = Number(refused.headers.get('retry-after'));
      const untilMidnight = (nextUtcMidnight().getTime() - Date.now()) / 1000;
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(Math.abs(retryAfter - untilMidnight)).toBeLessThan(5);
    }
    // In the caller's language, as a stream request too; no run was stored, the model never asked.
    const zh = await start(gwB, acmeAgent, 'one more', {
      'accept-language': 'zh-CN',
      accept: 'text/event-stream',
    });
    expect(zh.status).toBe(429);
    expect(zh.body.suggestedAction).toContain('UTC 0 点');
    expect(fake.requests.length).toBe(asked);
    const runs = await gwA.api('GET', '/v1/runs', { key: acmeAgent });
    expect(runs.body.data.items).toHaveLength(1);
  });

  it('leaves another tenant alone', async () => {
    scripts.set('globex status', () => ({
      text: 'all green',
      usage: { inputTokens: 500, outputTokens: 30 },
    }));
    const res = await start(gwB, globexAgent, 'globex status');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'completed',
      output: 'all green',
      usage: { totalTokens: 530 },
    });
  });

  it('shows runs by status and tokens per tenant and agent type, and each tenant’s day, in the admin stats', async () => {
    const stats = (await gwA.api('GET', '/v1/admin/stats')).body.data;
    expect(stats.runs.agentTypes).toEqual([
      {
        tenantId: 'acme',
        agentType: 'ops_assistant',
        runs: 1,
        byStatus: { running: 0, awaiting_approval: 0, completed: 0, failed: 1, cancelled: 0 },
        usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120 },
      },
      {
        tenantId: 'globex',
        agentType: 'ops_assistant',
        runs: 1,
        byStatus: { running: 0, awaiting_approval: 0, completed: 1, failed: 0, cancelled: 0 },
        usage: { inputTokens: 500, outputTokens: 30, totalTokens: 530 },
      },
    ]);
    expect(stats.runs.today).toEqual({
      day: new Date().toISOString().slice(0, 10),
      resetAt: nextUtcMidnight().toISOString(),
      tenants: [
        { tenantId: 'acme', tokens: 120, tokensPerDay: ACME_PER_DAY },
        // No cap of its own: held to the platform's ceiling (quotas.maxTokensPerDay).
        { tenantId: 'globex', tokens: 530, tokensPerDay: DEFAULT_QUOTAS_OPTIONS.maxTokensPerDay },
      ],
    });

    // A tenant admin sees its own tenant only; a window before the runs has none of them.
    const own = (await gwB.api('GET', '/v1/admin/stats', { key: globexAdmin })).body.data;
    expect(own.runs.agentTypes.map((r: any) => r.tenantId)).toEqual(['globex']);
    expect(own.runs.today.tenants).toEqual([
      { tenantId: 'globex', tokens: 530, tokensPerDay: DEFAULT_QUOTAS_OPTIONS.maxTokensPerDay },
    ]);
    const earlier = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const before = await gwA.api(
      'GET',
      `/v1/admin/stats?from=${encodeURIComponent(earlier)}&to=${encodeURIComponent(earlier)}`,
    );
    expect(before.body.data.runs.agentTypes).toEqual([]);
  });
});
