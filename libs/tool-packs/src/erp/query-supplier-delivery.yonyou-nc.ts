import { withRetry, type ToolContext } from '@toolgate/toolkit';
import { supplierNotFound } from './erp.errors.js';
import type {
  Delivery,
  QuerySupplierDeliveryInput,
  SupplierDeliveryReport,
} from './query-supplier-delivery.schema.js';
import { buildReport, settleStatus } from './supplier-delivery-report.js';
import { isNcSupplierNotFound, type NcArrivalRow } from './yonyou-nc.client.js';
import { yonyouNcConnector } from './yonyou-nc.connector.js';

/** The `yonyou_nc` implementation of `query_supplier_delivery`. */
export async function queryNcDeliveries(
  input: QuerySupplierDeliveryInput,
  ctx: ToolContext,
): Promise<SupplierDeliveryReport> {
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
}

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
