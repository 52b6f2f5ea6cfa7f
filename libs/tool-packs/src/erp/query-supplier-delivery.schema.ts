import { z } from 'zod';
import {
  DELIVERY_STATUS_FILTERS,
  DELIVERY_STATUSES,
  ERP_SOURCES,
  SUPPLIER_ID_PATTERN,
} from './erp.constants.js';

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
