import type {
  Delivery,
  ErpSource,
  QuerySupplierDeliveryInput,
  SupplierDeliveryReport,
} from './query-supplier-delivery.tool.js';

/**
 * The contract's delivery state from what every ERP knows: promised date, arrival date, and the
 * ERP's own overdue flag for deliveries still open (the ERP decides "today", not the gateway).
 */
export function settleStatus(
  promisedDate: string,
  deliveredDate: string | null,
  overdue: boolean,
): Delivery['status'] {
  if (deliveredDate) return deliveredDate <= promisedDate ? 'delivered' : 'late';
  return overdue ? 'late' : 'open';
}

/**
 * The report both implementations return: deliveries in the date range, the on-time rate over
 * that range, then the status filter. The rate ignores the status filter on purpose: "how
 * reliable is this supplier" should not read 0% because the caller asked for late deliveries only.
 * The demo upstreams filter by supplier only, so the range is applied here.
 */
export function buildReport(
  input: QuerySupplierDeliveryInput,
  source: ErpSource,
  deliveries: readonly Delivery[],
): SupplierDeliveryReport {
  const inRange = deliveries
    .filter((d) => (!input.from || d.promisedDate >= input.from) && (!input.to || d.promisedDate <= input.to))
    .sort((a, b) => a.promisedDate.localeCompare(b.promisedDate) || a.orderId.localeCompare(b.orderId));
  const settled = inRange.filter((d) => d.status !== 'open');
  const onTime = settled.filter((d) => d.status === 'delivered').length;
  return {
    supplierId: input.supplierId,
    source,
    deliveries: input.status === 'all' ? inRange : inRange.filter((d) => d.status === input.status),
    onTimeRate: settled.length ? Math.round((onTime / settled.length) * 1000) / 1000 : 0,
  };
}
