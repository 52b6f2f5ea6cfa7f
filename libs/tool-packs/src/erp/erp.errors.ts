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
