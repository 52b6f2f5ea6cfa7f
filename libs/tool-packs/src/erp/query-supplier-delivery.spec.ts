import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolTestBed, type ToolTestBed } from '../common/testing/tool-test-bed.js';
import {
  DEMO_NC_APP_KEY,
  DEMO_NC_APP_SECRET,
  DEMO_SAP_CLIENT,
  DEMO_SAP_PASSWORD,
  DEMO_SAP_USERNAME,
} from './erp.constants.js';
import { ErpToolsModule } from './erp.module.js';
import {
  fromODataDate,
  fromSapRow,
  supplierDeliveryReportSchema,
  type SupplierDeliveryReport,
} from './query-supplier-delivery.tool.js';
import { odataDate } from './sap-demo-data.js';
import { sapConnector } from './sap.connector.js';
import { SapSimulator } from './sap-simulator.js';
import { yonyouNcConnector } from './yonyou-nc.connector.js';
import { YonyouNcSimulator } from './yonyou-nc-simulator.js';
import { YonyouNcClient } from './yonyou-nc.client.js';

const TOOL = 'query_supplier_delivery';
const report = (r: { envelope: unknown }) => (r.envelope as { data: SupplierDeliveryReport }).data;

describe('query_supplier_delivery', () => {
  const sap = new SapSimulator();
  const nc = new YonyouNcSimulator();
  let bed: ToolTestBed;

  beforeAll(async () => {
    const [sapUrl, ncUrl] = await Promise.all([sap.start(), nc.start()]);
    bed = await createToolTestBed([ErpToolsModule], {
      sap: sapConnector.create({
        baseUrl: sapUrl,
        client: DEMO_SAP_CLIENT,
        username: DEMO_SAP_USERNAME,
        password: DEMO_SAP_PASSWORD,
      }),
      yonyou_nc: yonyouNcConnector.create({
        baseUrl: ncUrl,
        appKey: DEMO_NC_APP_KEY,
        appSecret: DEMO_NC_APP_SECRET,
      }),
    });
  });
  afterAll(async () => {
    await bed.close();
    await Promise.all([sap.close(), nc.close()]);
  });

  it('is one contract with two implementations', () => {
    const tool = bed.registry.get(TOOL)!;
    expect([...tool.implementations.keys()].sort()).toEqual(['sap', 'yonyou_nc']);
    expect(tool.risk).toMatchObject({
      level: 'L1',
      dataDomains: ['erp.purchasing'],
      approvalRequired: false,
    });
  });

  it('answers the same shape from SAP and from NC, with each systems own data', async () => {
    const fromSap = report(await bed.run(TOOL, { supplierId: 'V10023' }, { implementation: 'sap' }));
    const fromNc = report(await bed.run(TOOL, { supplierId: 'V10023' }, { implementation: 'yonyou_nc' }));
    for (const r of [fromSap, fromNc]) expect(supplierDeliveryReportSchema.safeParse(r).success).toBe(true);

    expect(fromSap).toMatchObject({ supplierId: 'V10023', source: 'sap', onTimeRate: 0.5 });
    expect(fromSap.deliveries).toHaveLength(5);
    expect(fromSap.deliveries[1]).toEqual({
      orderId: '4500012346',
      material: 'MAT-100311',
      quantity: 1200,
      unit: 'ST',
      promisedDate: '2025-10-28',
      deliveredDate: '2025-11-03',
      status: 'late',
    });
    expect(fromSap.deliveries.map((d) => d.status)).toEqual([
      'delivered',
      'late',
      'delivered',
      'late',
      'open',
    ]);

    expect(fromNc).toMatchObject({ supplierId: 'V10023', source: 'yonyou_nc', onTimeRate: 0.333 });
    expect(fromNc.deliveries[0]).toEqual({
      orderId: 'CG2025100017',
      material: '0101-M8-BOLT',
      quantity: 6000,
      unit: '个',
      promisedDate: '2025-10-12',
      deliveredDate: '2025-10-12',
      status: 'delivered',
    });
    expect(fromNc.deliveries.map((d) => d.status)).toEqual(['delivered', 'late', 'late', 'open']);
  });

  it('filters by promised date and status; the on-time rate ignores the status filter', async () => {
    const late = report(
      await bed.run(TOOL, { supplierId: 'V10023', status: 'late' }, { implementation: 'sap' }),
    );
    expect(late.deliveries.map((d) => d.orderId)).toEqual(['4500012346', '4500012402']);
    expect(late.onTimeRate).toBe(0.5);

    const november = report(
      await bed.run(
        TOOL,
        { supplierId: 'V10023', from: '2025-11-01', to: '2025-11-30' },
        { implementation: 'yonyou_nc' },
      ),
    );
    expect(november.deliveries.map((d) => d.orderId)).toEqual(['CG2025110008']);
    expect(november.onTimeRate).toBe(0);

    const v20001 = report(
      await bed.run(TOOL, { supplierId: 'V20001', status: 'open' }, { implementation: 'sap' }),
    );
    expect(v20001).toMatchObject({
      onTimeRate: 1,
      deliveries: [{ orderId: '4500013020', deliveredDate: null, status: 'open' }],
    });
  });

  it('answers an empty report for a known supplier without deliveries', async () => {
    expect(report(await bed.run(TOOL, { supplierId: 'V30005' }, { implementation: 'sap' }))).toEqual({
      supplierId: 'V30005',
      source: 'sap',
      deliveries: [],
      onTimeRate: 0,
    });
  });

  it.each(['sap', 'yonyou_nc'])(
    'fails an unknown supplier with SUPPLIER_NOT_FOUND (%s), without retrying',
    async (implementation) => {
      const sim = implementation === 'sap' ? sap : nc;
      const before = sim.stats.requests;
      const r = await bed.run(TOOL, { supplierId: 'V99999' }, { implementation });
      expect(r.envelope).toMatchObject({
        code: 'SUPPLIER_NOT_FOUND',
        suggestedAction: 'Check the supplier number (e.g. V10023), or ask the user for it',
      });
      expect((r.envelope as { error: string }).error).toMatch(
        /^Supplier V99999 does not exist in (SAP|用友 NC)$/,
      );
      expect(sim.stats.requests - before).toBe(1);
    },
  );

  it('validates supplier numbers, dates and the range', async () => {
    for (const input of [
      { supplierId: "V1' or '1' eq '1" },
      { supplierId: 'V10023', from: '2025-13-01' },
      { supplierId: 'V10023', from: '2025-11-30', to: '2025-11-01' },
      { supplierId: 'V10023', status: 'cancelled' },
    ]) {
      expect((await bed.run(TOOL, input, { implementation: 'sap' })).envelope).toMatchObject({
        code: 'INVALID_INPUT',
      });
    }
  });

  it('retries a 5xx from either ERP', async () => {
    sap.failNext(1, 503);
    nc.failNext(1, 502);
    expect((await bed.run(TOOL, { supplierId: 'V20001' }, { implementation: 'sap' })).envelope).toMatchObject(
      { status: 'ok' },
    );
    expect(
      (await bed.run(TOOL, { supplierId: 'V20001' }, { implementation: 'yonyou_nc' })).envelope,
    ).toMatchObject({ status: 'ok' });
  });

  it('refuses wrong credentials without showing them', async () => {
    const wrongSap = sapConnector.create({
      baseUrl: sap.url,
      client: DEMO_SAP_CLIENT,
      username: DEMO_SAP_USERNAME,
      password: 'wrong-sap-pass',
    });
    const sapResult = await bed.run(
      TOOL,
      { supplierId: 'V10023' },
      { implementation: 'sap', connectors: () => wrongSap },
    );
    expect((sapResult.envelope as { error: string }).error).toBe(
      'The tool failed: sap answered 401 to GET: Logon Error Message Anmeldung fehlgeschlagen Logon failed',
    );

    const wrongClient = sapConnector.create({
      baseUrl: sap.url,
      client: '200',
      username: DEMO_SAP_USERNAME,
      password: DEMO_SAP_PASSWORD,
    });
    expect(
      (
        await bed.run(
          TOOL,
          { supplierId: 'V10023' },
          { implementation: 'sap', connectors: () => wrongClient },
        )
      ).envelope,
    ).toMatchObject({
      code: 'UPSTREAM_ERROR',
    });

    const wrongNc = yonyouNcConnector.create({
      baseUrl: nc.url,
      appKey: DEMO_NC_APP_KEY,
      appSecret: 'wrong-nc-secret',
    });
    const ncResult = await bed.run(
      TOOL,
      { supplierId: 'V10023' },
      { implementation: 'yonyou_nc', connectors: () => wrongNc },
    );
    expect(ncResult.envelope).toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect((ncResult.envelope as { error: string }).error).toContain(
      'yonyou_nc answered 401 to POST: 签名校验失败',
    );
    const text = JSON.stringify([sapResult.envelope, ncResult.envelope]);
    for (const secret of [
      'wrong-sap-pass',
      'wrong-nc-secret',
      Buffer.from(`${DEMO_SAP_USERNAME}:wrong-sap-pass`).toString('base64'),
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('refuses an NC request signed with a clock far off (replay protection)', async () => {
    const skewed = new YonyouNcClient(
      { baseUrl: nc.url, appKey: DEMO_NC_APP_KEY, appSecret: DEMO_NC_APP_SECRET },
      () => Date.now() - 10 * 60_000,
    );
    await expect(skewed.arrivalsOf('V10023')).rejects.toMatchObject({ status: 401 });
  });
});

describe('SAP mapping', () => {
  it('reads OData v2 dates, with or without an offset', () => {
    expect(fromODataDate(odataDate('2025-11-01'))).toBe('2025-11-01');
    expect(fromODataDate('/Date(1761955200000+0000)/')).toBe('2025-11-01');
    expect(() => fromODataDate('2025-11-01')).toThrow(/not \/Date\(ms\)\//);
  });

  it('settles the status from the receipt date before the SAP status', () => {
    const base = {
      Ebeln: '1',
      Ebelp: '00010',
      Lifnr: 'V1',
      Matnr: 'M',
      Txz01: 't',
      Menge: '1.500',
      Meins: 'KG',
      Eindt: odataDate('2025-11-10'),
    };
    expect(fromSapRow({ ...base, Budat: odataDate('2025-11-10'), Status: 'C' })).toMatchObject({
      status: 'delivered',
      quantity: 1.5,
    });
    expect(fromSapRow({ ...base, Budat: odataDate('2025-11-11'), Status: 'C' }).status).toBe('late');
    expect(fromSapRow({ ...base, Budat: null, Status: 'V' }).status).toBe('late');
    expect(fromSapRow({ ...base, Budat: null, Status: 'A' })).toMatchObject({
      status: 'open',
      deliveredDate: null,
    });
  });
});
