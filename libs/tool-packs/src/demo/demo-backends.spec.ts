import { Global, Module } from '@nestjs/common';
import { ConfigVariables, expandVariables } from '@toolgate/tenancy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolTestBed, type ToolTestBed } from '../common/testing/tool-test-bed.js';
import { ErpToolsModule } from '../erp/erp.module.js';
import { sapConnector } from '../erp/sap.connector.js';
import { yonyouNcConnector } from '../erp/yonyou-nc.connector.js';
import { opsApiConnector } from '../ops/ops-api.connector.js';
import { OpsToolsModule } from '../ops/ops.module.js';
import { DemoBackendsModule } from './demo-backends.module.js';
import { DemoBackends } from './demo-backends.service.js';

/** Stands in for the global TenancyModule, which needs a database. */
@Global()
@Module({ providers: [ConfigVariables], exports: [ConfigVariables] })
class VariablesModule {}

// What the demo tenant files say; the defaults are the demo credentials.
const TEMPLATES = {
  ops_api: { baseUrl: '${DEMO_OPS_URL}', token: '${TOOLGATE_T_ACME__OPS_TOKEN:-demo-ops-token}' },
  sap: {
    baseUrl: '${DEMO_SAP_URL}',
    client: '100',
    username: 'TOOLGATE',
    password: '${TOOLGATE_T_ACME__SAP_PASSWORD:-demo-sap-password}',
  },
  yonyou_nc: {
    baseUrl: '${DEMO_NC_URL}',
    appKey: 'demo-nc-key',
    appSecret: '${TOOLGATE_T_ACME__NC_SECRET:-demo-nc-secret}',
  },
};

describe('DemoBackendsModule', () => {
  let bed: ToolTestBed;
  let demo: DemoBackends;
  let variables: ConfigVariables;

  beforeAll(async () => {
    // Clients are made lazily, the way TenantConnectors does: after the demo backends started.
    const clients: Record<string, unknown> = {};
    bed = await createToolTestBed(
      [
        VariablesModule,
        DemoBackendsModule.forRoot({ legacyBatchDelayMs: 300 }),
        OpsToolsModule,
        ErpToolsModule,
      ],
      clients,
    );
    demo = bed.moduleRef.get(DemoBackends);
    variables = bed.moduleRef.get(ConfigVariables);
    const expand = <T>(t: T) => expandVariables(t, variables.lookupFor('acme'));
    clients.ops_api = opsApiConnector.create(expand(TEMPLATES.ops_api));
    clients.sap = sapConnector.create(expand(TEMPLATES.sap));
    clients.yonyou_nc = yonyouNcConnector.create(expand(TEMPLATES.yonyou_nc));
  });
  afterAll(() => bed?.close());

  it('registers the loopback URLs of the three simulators', () => {
    expect(variables.lookupFor('acme')('DEMO_OPS_URL')).toBe(demo.ops.url);
    expect(variables.lookupFor('acme')('DEMO_SAP_URL')).toBe(demo.sap.url);
    expect(variables.lookupFor('acme')('DEMO_NC_URL')).toBe(demo.nc.url);
    for (const url of [demo.ops.url, demo.sap.url, demo.nc.url])
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves every tool with the credentials the tenant files default to', async () => {
    expect((await bed.run('get_service_status', { service: 'search-api' })).envelope).toMatchObject({
      data: { status: 'degraded' },
    });
    expect(
      (await bed.run('query_supplier_delivery', { supplierId: 'V10023' }, { implementation: 'sap' }))
        .envelope,
    ).toMatchObject({ data: { source: 'sap' } });
    expect(
      (await bed.run('query_supplier_delivery', { supplierId: 'V10023' }, { implementation: 'yonyou_nc' }))
        .envelope,
    ).toMatchObject({
      data: { source: 'yonyou_nc' },
    });
    const refund = { amount: 100, reason: '演示退款，客户退回 1 件' };
    for (const [implementation, invoiceId] of [
      ['sap', '90012001'],
      ['yonyou_nc', 'XSFP2025110001'],
    ] as const) {
      expect(
        (await bed.run('create_refund', { invoiceId, ...refund }, { implementation })).envelope,
      ).toMatchObject({ data: { invoiceId, source: implementation } });
    }
    expect(demo.ops.stats.unauthorized + demo.sap.stats.unauthorized + demo.nc.stats.unauthorized).toBe(0);
  });

  it('applies the configured legacy-batch delay', async () => {
    expect(
      (await bed.run('get_service_status', { service: 'legacy-batch' }, { timeoutMs: 100 })).envelope,
    ).toMatchObject({ code: 'TIMEOUT' });
  });

  it('reports counters over HTTP for tests in another process', async () => {
    const stats = (await (await fetch(`${demo.ops.url}/__stats`)).json()) as { requests: number };
    expect(stats.requests).toBe(demo.ops.stats.requests);
  });

  it('closes the simulators with the application, held requests included', async () => {
    const held = fetch(`${demo.ops.url}/services/legacy-batch`, {
      headers: { authorization: 'Bearer demo-ops-token' },
    }).catch(() => 'cut');
    const urls = [demo.ops.url, demo.sap.url, demo.nc.url];
    const started = Date.now();
    await bed.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await held).toBe('cut');
    for (const url of urls) await expect(fetch(`${url}/__stats`)).rejects.toThrow();
  });
});
