import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpsTestBed } from '../common/testing/ops-test-bed.js';
import type { ToolTestBed } from '../common/testing/tool-test-bed.js';
import { opsApiConnector } from './ops-api.connector.js';
import { OpsSimulator } from './ops-simulator.js';

describe('get_service_status', () => {
  const sim = new OpsSimulator({ slowDelayMs: 400 });
  let bed: ToolTestBed;

  beforeAll(async () => {
    bed = await createOpsTestBed(sim);
  });
  afterAll(() => bed.close());

  it('is registered with its risk metadata', () => {
    const tool = bed.registry.get('get_service_status')!;
    expect(tool.risk).toEqual({
      level: 'L0',
      approvalRequired: false,
      dataDomains: ['ops.services'],
      estimatedDurationMs: 300,
    });
    expect(tool.description).toContain('不返回历史数据');
    // No limit of its own: the 10 s default, which the demo's legacy-batch (15 s) overruns.
    expect(tool.timeoutMs).toBe(10_000);
  });

  it('maps the upstream answer to the contract', async () => {
    expect((await bed.run('get_service_status', { service: 'payment-api' })).envelope).toEqual({
      status: 'ok',
      data: {
        service: 'payment-api',
        status: 'healthy',
        instances: 3,
        updatedAt: '2025-11-30T05:59:30.000Z',
      },
    });
    expect((await bed.run('get_service_status', { service: 'search-api' })).envelope).toMatchObject({
      data: { status: 'degraded', instances: 2 },
    });
  });

  it('fails an unknown service with SERVICE_NOT_FOUND, in the callers language, without retrying', async () => {
    const before = sim.stats.requests;
    const r = await bed.run('get_service_status', { service: 'paymnet-api' });
    expect(r.envelope).toEqual({
      error: 'Service "paymnet-api" does not exist in the ops API',
      code: 'SERVICE_NOT_FOUND',
      suggestedAction:
        'Check the spelling of the service name (e.g. payment-api), or ask the user for the exact name',
    });
    expect(sim.stats.requests - before).toBe(1);
    const zh = await bed.run('get_service_status', { service: 'paymnet-api' }, { locale: 'zh-CN' });
    expect(zh.envelope).toMatchObject({
      code: 'SERVICE_NOT_FOUND',
      error: '服务 paymnet-api 在运维 API 中不存在',
    });
  });

  it('retries 5xx answers', async () => {
    const before = sim.stats.requests;
    sim.failNext(2, 503);
    expect((await bed.run('get_service_status', { service: 'payment-api' })).envelope).toMatchObject({
      status: 'ok',
    });
    expect(sim.stats.requests - before).toBe(3);
  });

  it('reports a lasting outage as UPSTREAM_ERROR after three attempts', async () => {
    sim.failNext(3, 500);
    const r = await bed.run('get_service_status', { service: 'payment-api' });
    expect(r.envelope).toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect((r.envelope as { error: string }).error).toContain(
      'ops_api answered 500 to GET: simulated outage',
    );
  });

  it('refuses a wrong token without showing it', async () => {
    const wrong = opsApiConnector.create({ baseUrl: sim.url, token: 'wrong-token-123456' });
    const r = await bed.run('get_service_status', { service: 'payment-api' }, { connectors: () => wrong });
    expect(r.envelope).toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect(JSON.stringify(r.envelope)).toContain('401');
    expect(JSON.stringify(r.envelope)).not.toContain('wrong-token-123456');
  });

  it('times out on legacy-batch and aborts the upstream request', async () => {
    const abandoned = sim.stats.abandoned;
    const started = Date.now();
    const r = await bed.run('get_service_status', { service: 'legacy-batch' }, { timeoutMs: 100 });
    expect(r.envelope).toMatchObject({ code: 'TIMEOUT' });
    expect(r.stage).toBe('timed_out');
    // The simulator answers after 400 ms; a hang guard above that would prove nothing, so "did not
    // wait" is the abandoned request below (the client left before the answer). Was `< 350 ms`.
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    await expect.poll(() => sim.stats.abandoned).toBe(abandoned + 1);
  });

  it('answers legacy-batch when the limit allows', async () => {
    expect((await bed.run('get_service_status', { service: 'legacy-batch' })).envelope).toMatchObject({
      data: { instances: 1 },
    });
  });

  it('validates input and reports a missing connector', async () => {
    expect((await bed.run('get_service_status', { service: '' })).envelope).toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect((await bed.run('get_service_status', { service: 'x'.repeat(65) })).envelope).toMatchObject({
      code: 'INVALID_INPUT',
    });
    const r = await bed.run(
      'get_service_status',
      { service: 'payment-api' },
      { connectors: () => undefined },
    );
    expect(r.envelope).toMatchObject({ code: 'CONNECTOR_NOT_CONFIGURED' });
  });
});
