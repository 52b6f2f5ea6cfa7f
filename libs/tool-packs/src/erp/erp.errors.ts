import { ToolError, type Locale } from '@toolgate/toolkit';
import type { ErpSource } from './query-supplier-delivery.tool.js';

const ERP_NAMES: Readonly<Record<ErpSource, string>> = { sap: 'SAP', yonyou_nc: '用友 NC' };

/** The agent-facing failure for a supplier the tenant's ERP does not know, in the caller's language. */
export function supplierNotFound(supplierId: string, source: ErpSource, locale: Locale): ToolError {
  return locale === 'en'
    ? new ToolError(
        'SUPPLIER_NOT_FOUND',
        `Supplier ${supplierId} does not exist in ${ERP_NAMES[source]}`,
        'Check the supplier number (e.g. V10023), or ask the user for it',
      )
    : new ToolError(
        'SUPPLIER_NOT_FOUND',
        `供应商 ${supplierId} 在 ${ERP_NAMES[source]} 中不存在`,
        '检查供应商编号（例如 V10023），或向用户确认',
      );
}

/** The agent-facing failure for an invoice the tenant's ERP does not know. */
export function invoiceNotFound(invoiceId: string, source: ErpSource, locale: Locale): ToolError {
  return locale === 'en'
    ? new ToolError(
        'INVOICE_NOT_FOUND',
        `Invoice ${invoiceId} does not exist in ${ERP_NAMES[source]}`,
        'Check the invoice number on the customer’s invoice, or ask the user for it',
      )
    : new ToolError(
        'INVOICE_NOT_FOUND',
        `发票 ${invoiceId} 在 ${ERP_NAMES[source]} 中不存在`,
        '核对客户发票上的发票号，或向用户确认',
      );
}

/** The agent-facing failure for a refund above what is left to refund on the invoice. */
export function refundExceedsInvoice(invoiceId: string, source: ErpSource, locale: Locale): ToolError {
  return locale === 'en'
    ? new ToolError(
        'REFUND_EXCEEDS_INVOICE',
        `${ERP_NAMES[source]} refused: the refund is larger than what is left to refund on invoice ${invoiceId}`,
        'Refund at most the amount still open on the invoice; earlier refunds count against it',
      )
    : new ToolError(
        'REFUND_EXCEEDS_INVOICE',
        `${ERP_NAMES[source]} 拒绝：退款金额超过发票 ${invoiceId} 的可退余额`,
        '退款金额不能超过发票尚可退的部分（已退金额会被扣除）',
      );
}
