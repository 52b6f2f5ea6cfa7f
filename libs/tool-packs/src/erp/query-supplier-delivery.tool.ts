import { defineToolContract, withRetry } from '@toolgate/toolkit';
import { z } from 'zod';
import { UpstreamFormatError } from '../common/upstream-errors.js';
import {
  DELIVERY_STATUS_FILTERS,
  DELIVERY_STATUSES,
  ERP_SOURCES,
  SAP_CONNECTOR,
  SUPPLIER_ID_PATTERN,
  YONYOU_NC_CONNECTOR,
} from './erp.constants.js';
import { supplierNotFound } from './erp.errors.js';
import { isSapSupplierNotFound, type SapDeliveryRow } from './sap.client.js';
import { sapConnector } from './sap.connector.js';
import { buildReport, settleStatus } from './supplier-delivery-report.js';
import { isNcSupplierNotFound, type NcArrivalRow } from './yonyou-nc.client.js';
import { yonyouNcConnector } from './yonyou-nc.connector.js';

const day = z.iso.date();

/** Input of `query_supplier_delivery`, shared by every implementation. */
export const querySupplierDeliveryInput = z
  .object({
    supplierId: z.string().regex(SUPPLIER_ID_PATTERN).describe('供应商编号，例如 V10023'),
    from: day.optional().describe('承诺交货日期下限（含），YYYY-MM-DD；省略表示不限'),
    to: day.optional().describe('承诺交货日期上限（含），YYYY-MM-DD；省略表示不限'),
    status: z
      .enum(DELIVERY_STATUS_FILTERS)
      .default('all')
      .describe('open 未交货 · delivered 按期交货 · late 逾期（已逾期未交或延迟交货） · all 全部'),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, {
    path: ['to'],
    message: 'to must not be before from (to 不能早于 from)',
  });

/** One scheduled delivery, in the contract's words. */
export const deliverySchema = z.object({
  orderId: z.string().describe('采购订单号'),
  material: z.string().describe('物料编码'),
  quantity: z.number().describe('计划交货数量'),
  unit: z.string().describe('计量单位，按 ERP 的写法'),
  promisedDate: day.describe('承诺交货日期'),
  deliveredDate: day.nullable().describe('实际到货日期；未到货为 null'),
  status: z.enum(DELIVERY_STATUSES),
});

/** Output of `query_supplier_delivery`. */
export const supplierDeliveryReportSchema = z.object({
  supplierId: z.string(),
  source: z.enum(ERP_SOURCES).describe('回答查询的 ERP'),
  deliveries: z.array(deliverySchema).describe('按承诺交货日期排序'),
  onTimeRate: z
    .number()
    .min(0)
    .max(1)
    .describe(
      '日期范围内已有结论（按期或逾期）的交货中按期的比例，不受 status 过滤影响；没有这样的交货时为 0',
    ),
});

/** The validated input, defaults filled in. */
export type QuerySupplierDeliveryInput = z.output<typeof querySupplierDeliveryInput>;
/** One delivery of the contract. */
export type Delivery = z.output<typeof deliverySchema>;
/** Where a report came from. */
export type ErpSource = (typeof ERP_SOURCES)[number];
/** What every implementation returns. */
export type SupplierDeliveryReport = z.output<typeof supplierDeliveryReportSchema>;

/**
 * `query_supplier_delivery`, declared once and implemented per ERP (docs/tool-design-rules.md §A6: the same agent bound
 * to SAP for one customer and to Yonyou NC for another). Which implementation runs is the
 * tenant's binding; the agent sees one contract.
 * `ErpToolsModule` registers both implementations below.
 */
export const querySupplierDelivery = defineToolContract({
  name: 'query_supplier_delivery',
  description:
    '查询某个供应商的采购交货记录：每张订单的物料、数量、承诺交货日期、实际到货日期和状态（未交货 / 按期 / 逾期），以及按期交货率。' +
    '用于评估供应商交付表现、追踪逾期订单。只读；不查询库存、发票或付款，也不修改订单。' +
    '按日期范围（承诺交货日期）和状态过滤；供应商编号不存在时返回 SUPPLIER_NOT_FOUND。',
  inputSchema: querySupplierDeliveryInput,
  keyFields: ['supplierId'],
  outputSchema: supplierDeliveryReportSchema,
  risk: { level: 'L1', dataDomains: ['erp.purchasing'], estimatedDurationMs: 1500 },
});

const ODATA_DATE = /^\/Date\((-?\d+)(?:[+-]\d{4})?\)\/$/;

/** The `sap` implementation of `query_supplier_delivery`. */
export const querySapDeliveries = querySupplierDelivery.implement(SAP_CONNECTOR, async (input, ctx) => {
  const sap = ctx.connector(sapConnector);
  let rows: readonly SapDeliveryRow[];
  try {
    rows = await withRetry(() => sap.deliverySchedules(input.supplierId, ctx.abortSignal), {
      signal: ctx.abortSignal,
    });
  } catch (err) {
    if (isSapSupplierNotFound(err)) throw supplierNotFound(input.supplierId, 'sap', ctx.locale);
    throw err;
  }
  return buildReport(input, 'sap', rows.map(fromSapRow));
});

/** One SAP schedule line in the contract's words. */
export function fromSapRow(row: SapDeliveryRow): Delivery {
  const promisedDate = fromODataDate(row.Eindt);
  const deliveredDate = row.Budat ? fromODataDate(row.Budat) : null;
  return {
    orderId: row.Ebeln,
    material: row.Matnr,
    quantity: Number(row.Menge),
    unit: row.Meins,
    promisedDate,
    deliveredDate,
    status: settleStatus(promisedDate, deliveredDate, row.Status === 'V'),
  };
}

/** `/Date(1761955200000)/` → `2025-11-01`. */
export function fromODataDate(value: string): string {
  const match = ODATA_DATE.exec(value);
  if (!match)
    throw new UpstreamFormatError(
      SAP_CONNECTOR,
      200,
      'GET',
      'DeliveryScheduleSet',
      `a date that is not /Date(ms)/: ${value.slice(0, 40)}`,
    );
  return new Date(Number(match[1])).toISOString().slice(0, 10);
}

/** The `yonyou_nc` implementation of `query_supplier_delivery`. */
export const queryNcDeliveries = querySupplierDelivery.implement(YONYOU_NC_CONNECTOR, async (input, ctx) => {
  const nc = ctx.connector(yonyouNcConnector);
  let rows: readonly NcArrivalRow[];
  try {
    // A read: safe to retry on 5xx and network failures (business refusals are not retried).
    rows = await withRetry(() => nc.arrivalsOf(input.supplierId, ctx.abortSignal), {
      signal: ctx.abortSignal,
    });
  } catch (err) {
    if (isNcSupplierNotFound(err)) throw supplierNotFound(input.supplierId, 'yonyou_nc', ctx.locale);
    throw err;
  }
  return buildReport(input, 'yonyou_nc', rows.map(fromNcRow));
});

/** One NC arrival line in the contract's words. */
export function fromNcRow(row: NcArrivalRow): Delivery {
  // NC datetimes are `YYYY-MM-DD HH:mm:ss` in the server's zone; the contract wants the day.
  const promisedDate = row.dplanarrivedate.slice(0, 10);
  const deliveredDate = row.darrivedate ? row.darrivedate.slice(0, 10) : null;
  return {
    orderId: row.vbillcode,
    material: row.cinventoryid,
    quantity: Number(row.nnum),
    unit: row.castunitid,
    promisedDate,
    deliveredDate,
    status: settleStatus(promisedDate, deliveredDate, row.bisoverdue === 'Y'),
  };
}
