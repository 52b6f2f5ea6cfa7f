import { defineToolContract } from '@toolgate/toolkit';
import {
  querySupplierDeliveryInput,
  supplierDeliveryReportSchema,
  type SupplierDeliveryReport,
} from './query-supplier-delivery.schema.js';

/**
 * `query_supplier_delivery`, declared once and implemented per ERP (docs/tool-design-rules.md §A6: the same agent bound
 * to SAP for one customer and to Yonyou NC for another). Which implementation runs is the
 * tenant's binding; the agent sees one contract.
 * @example
 * ToolkitModule.forFeature([querySupplierDelivery.implement('sap', querySapDeliveries), ...])
 */
export const querySupplierDelivery = defineToolContract<
  typeof querySupplierDeliveryInput,
  SupplierDeliveryReport
>({
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
