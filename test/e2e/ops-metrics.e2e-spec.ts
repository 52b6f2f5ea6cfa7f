import { startTestGateway, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenApiService, type FakeOpenApiService } from '../support/fake-openapi-service.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

describe('/metrics: read by the scraper’s token or a platform admin, with labels nobody else chooses', () => {
  let gw: TestGateway;
  let service: FakeOpenApiService;
  let tenantAdmin: string;
  let agent: string;

  beforeAll(async () => {
    service = await startFakeOpenApiService();
    gw = await startTestGateway({
      env: { TOOLGATE_METRICS_TOKEN: METRICS_TOKEN, TOOLGATE_UPSTREAM_REFRESH_MS: '600000' },
    });
    tenantAdmin = await gw.createKey('tenant_admin', 'acme');
    agent = await gw.createKey('agent', 'acme');
  });

  afterAll(async () => {
    await gw?.close();
    await service?.close();
  });

  const scrape = (authorization?: string) =>
    gw.api('GET', '/metrics', { key: null, headers: authorization ? { authorization } : {} });

  it('answers the metrics token and platform admins; anyone else gets 401 or 403', async () => {
    const anonymous = await scrape();
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHENTICATED');
    expect((await scrape(`Bearer ${METRICS_TOKEN}x`)).status).toBe(401);
    expect((await scrape(METRICS_TOKEN)).status).toBe(401);
    expect((await gw.api('GET', '/metrics', { key: tenantAdmin })).status).toBe(403);
    const scraped = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(scraped.text).toContain('toolgate_process_cpu_seconds_total');
    expect((await gw.api('GET', '/metrics')).status).toBe(200);
    // Health stays open for load balancers.
    expect((await gw.api('GET', '/healthz', { key: null })).status).toBe(200);
  });

  it('names registry tools, and counts tenant-named imported tools as `other`', async () => {
    const base = '/v1/admin/tenants/acme/upstreams';
    const registered = await gw.api('POST', base, {
      key: tenantAdmin,
      body: { name: 'tenant_chosen_name', kind: 'openapi', url: service.documentUrl },
    });
    expect(registered.status, registered.text).toBe(201);
    const imported = await gw.api('POST', `${base}/tenant_chosen_name/import`, {
      key: tenantAdmin,
      body: {
        tools: [
          { name: 'list_customers', riskLevel: 'L0', toolgateName: 'tenant_chosen_name__any_label_i_like' },
        ],
        bindTo: ['ops_assistant'],
      },
    });
    expect(imported.status, imported.text).toBe(200);
    const invoke = (tool: string, input: unknown) =>
      gw.api('POST', `/v1/agents/ops_assistant/tools/${tool}/invoke`, { key: agent, body: { input } });
    expect((await invoke('tenant_chosen_name__any_label_i_like', { q: 'a' })).body.status).toBe('ok');
    expect((await invoke('get_service_status', { service: 'payment-api' })).body.status).toBe('ok');

    const text = (await scrape(`Bearer ${METRICS_TOKEN}`)).text;
    expect(text).not.toContain('tenant_chosen_name');
    expect(text).toContain('toolgate_tool_calls_total{tool="other",code="OK",face="rest"} 1');
    expect(text).toContain('toolgate_tool_calls_total{tool="get_service_status",code="OK",face="rest"}');
  });
});
