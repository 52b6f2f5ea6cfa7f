import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolTestBed, type ToolTestBed } from '../common/testing/tool-test-bed.js';
import { refundSchema, upstreamRequestKey, type Refund } from './create-refund.tool.js';
import {
  DEMO_NC_APP_KEY,
  DEMO_NC_APP_SECRET,
  DEMO_SAP_CLIENT,
  DEMO_SAP_PASSWORD,
  DEMO_SAP_USERNAME,
} from './erp.constants.js';
import { ErpToolsModule } from './erp.module.js';
import { decimalToFen, fenToDecimal, toFen } from './refund-ledger.js';
import { sapConnector } from './sap.connector.js';
import { SapSimulator } from './sap-simulator.js';
import { yonyouNcConnector } from './yonyou-nc.connector.js';
import { YonyouNcSimulator } from './yonyou-nc-simulator.js';

const TOOL = 'create_refund';
const refund = (r: { envelope: unknown }) => (r.envelope as { data: Refund }).data;
const reason = '货物破损，客户退回 20 件';

describe('create_refund', () => {
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

  it('is one L2 contract with two implementations and no approval of its own', () => {
    const tool = bed.registry.get(TOOL)!;
    expect([...tool.implementations.keys()].sort()).toEqual(['sap', 'yonyou_nc']);
    expect(tool.risk).toMatchObject({ level: 'L2', dataDomains: ['erp.finance'], approvalRequired: false });
  });

  it('books a credit memo request in SAP and a refund bill in NC, in the same shape', async () => {
    const fromSap = refund(
      await bed.run(TOOL, { invoiceId: '90012001', amount: 1200.5, reason }, { implementation: 'sap' }),
    );
    const fromNc = refund(
      await bed.run(
        TOOL,
        { invoiceId: 'XSFP2025110001', amount: 800, reason },
        { implementation: 'yonyou_nc' },
      ),
    );
    for (const r of [fromSap, fromNc]) expect(refundSchema.safeParse(r).success).toBe(true);
    expect(fromSap).toEqual({
      refundId: expect.stringMatching(/^6\d{7}$/),
      invoiceId: '90012001',
      amount: 1200.5,
      currency: 'CNY',
      remaining: 7399.5,
      source: 'sap',
    });
    expect(fromNc).toMatchObject({
      invoiceId: 'XSFP2025110001',
      amount: 800,
      remaining: 8400,
      source: 'yonyou_nc',
    });
    expect(fromNc.refundId).toMatch(/^XSTK\d{10}$/);
    expect(sap.refunds.booked.at(-1)).toMatchObject({ invoiceId: '90012001', amountFen: 120_050, reason });
    expect(nc.refunds.booked.at(-1)).toMatchObject({
      invoiceId: 'XSFP2025110001',
      amountFen: 80_000,
      reason,
    });
  });

  it('books one refund when a call is re-run or retried (the call id goes upstream)', async () => {
    for (const implementation of ['sap', 'yonyou_nc'] as const) {
      const sim = implementation === 'sap' ? sap : nc;
      const invoiceId = implementation === 'sap' ? '90012002' : 'XSFP2025110002';
      const before = sim.refunds.booked.length;
      const call = { implementation, sessionId: 's-refund', callId: `c-${implementation}` };
      const first = refund(await bed.run(TOOL, { invoiceId, amount: 100, reason }, call));
      sim.failNext(1); // a 503 on the re-run's first attempt: retried with the same key
      const again = refund(await bed.run(TOOL, { invoiceId, amount: 100, reason }, call));
      expect(again).toEqual(first);
      expect(sim.refunds.booked.length - before).toBe(1);
    }
    expect(sap.refunds.booked.at(-1)!.requestKey).toBe(upstreamRequestKey('s-refund:c-sap'));
  });

  it('names an unknown invoice and a refund above what is left, in the caller’s language', async () => {
    const unknown = await bed.run(
      TOOL,
      { invoiceId: '90099999', amount: 10, reason },
      { implementation: 'sap' },
    );
    expect(unknown.envelope).toMatchObject({
      code: 'INVOICE_NOT_FOUND',
      error: 'Invoice 90099999 does not exist in SAP',
    });
    const unknownNc = await bed.run(
      TOOL,
      { invoiceId: 'XSFP0', amount: 10, reason },
      { implementation: 'yonyou_nc', locale: 'zh-CN' },
    );
    expect(unknownNc.envelope).toMatchObject({
      code: 'INVOICE_NOT_FOUND',
      error: '发票 XSFP0 在 用友 NC 中不存在',
    });
    for (const [implementation, invoiceId] of [
      ['sap', '90012003'],
      ['yonyou_nc', 'XSFP2025110003'],
    ] as const) {
      const tooLarge = await bed.run(TOOL, { invoiceId, amount: 999_999, reason }, { implementation });
      expect(tooLarge.envelope).toMatchObject({ code: 'REFUND_EXCEEDS_INVOICE' });
    }
  });

  it('refuses amounts that are not whole fen, not positive, or beyond the contract’s bound', async () => {
    for (const amount of [0, -5, 10.001, 10_000_001]) {
      const r = await bed.run(TOOL, { invoiceId: '90012001', amount, reason }, { implementation: 'sap' });
      expect(r.envelope, String(amount)).toMatchObject({ code: 'INVALID_INPUT' });
    }
    expect((await bed.run(TOOL, { invoiceId: '90012001', amount: 0.07, reason })).envelope).toMatchObject({
      status: 'ok',
    });
  });

  it('converts between yuan and the ERPs’ decimal strings exactly', () => {
    expect(toFen(0.07)).toBe(7);
    expect(toFen(1200.5)).toBe(120_050);
    expect(fenToDecimal(120_050)).toBe('1200.50');
    expect(fenToDecimal(7)).toBe('0.07');
    expect(decimalToFen('1200.5')).toBe(120_050);
    expect(decimalToFen('12.345')).toBeNull();
    expect(decimalToFen('-1')).toBeNull();
    expect(decimalToFen(12)).toBeNull();
  });
});
