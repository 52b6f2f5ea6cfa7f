import { withRetry, type ToolContext } from '@toolgate/toolkit';
import { UpstreamFormatError } from '../common/upstream-errors.js';
import { SAP_CONNECTOR } from './erp.constants.js';
import { supplierNotFound } from './erp.errors.js';
import type {
  Delivery,
  QuerySupplierDeliveryInput,
  SupplierDeliveryReport,
} from './query-supplier-delivery.schema.js';
import { isSapSupplierNotFound, type SapDeliveryRow } from './sap.client.js';
import { sapConnector } from './sap.connector.js';
import { buildReport, settleStatus } from './supplier-delivery-report.js';

const ODATA_DATE = /^\/Date\((-?\d+)(?:[+-]\d{4})?\)\/$/;

/** The `sap` implementation of `query_supplier_delivery`. */
export async function querySapDeliveries(
  input: QuerySupplierDeliveryInput,
  ctx: ToolContext,
): Promise<SupplierDeliveryReport> {
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
}

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
