import type { NcArrivalRow } from './yonyou-nc.client.js';
import type { DemoInvoice } from './refund-ledger.js';

function row(
  vbillcode: string,
  cvendorid: string,
  cinventoryid: string,
  nnum: string,
  castunitid: string,
  plan: string,
  arrived: string | null,
  bisoverdue: 'Y' | 'N',
): NcArrivalRow {
  return {
    vbillcode,
    cvendorid,
    cinventoryid,
    nnum,
    castunitid,
    dplanarrivedate: `${plan} 00:00:00`,
    darrivedate: arrived ? `${arrived} 10:30:00` : null,
    bisoverdue,
  };
}

/**
 * The demo NC system's arrival lines: other orders and figures than the SAP demo, so tests can tell
 * the implementations apart. V10023: 1 on time, 2 late, 1 open (on-time rate 0.333);
 * V20001: 1 on time, 1 late (0.5).
 */
export const NC_DEMO_ARRIVALS: readonly NcArrivalRow[] = [
  row('CG2025100017', 'V10023', '0101-M8-BOLT', '6000.00000000', '个', '2025-10-12', '2025-10-12', 'N'),
  row('CG2025100042', 'V10023', '0102-AL-BRKT', '1500.00000000', '件', '2025-10-30', '2025-11-06', 'N'),
  row('CG2025110008', 'V10023', '0101-M8-BOLT', '4000.00000000', '个', '2025-11-25', null, 'Y'),
  row('CG2025120003', 'V10023', '0301-STEEL-CR', '2000.00000000', '千克', '2025-12-20', null, 'N'),
  row('CG2025100055', 'V20001', '0401-PSU-24V', '800.00000000', '件', '2025-10-25', '2025-10-24', 'N'),
  row('CG2025110031', 'V20001', '0402-CONN-J30', '15000.00000000', '个', '2025-11-18', '2025-11-20', 'N'),
];

/** Suppliers the demo NC system knows. */
export const NC_DEMO_SUPPLIERS: ReadonlySet<string> = new Set(['V10023', 'V20001']);

/** Sales invoices (销售发票) of the demo NC system a refund may reference, amounts in fen. */
export const NC_DEMO_INVOICES: readonly DemoInvoice[] = [
  { invoiceId: 'XSFP2025110001', customer: '宁波海港国际贸易', totalFen: 920_000 },
  { invoiceId: 'XSFP2025110002', customer: '青岛北方进出口', totalFen: 4_800_000 },
  { invoiceId: 'XSFP2025110003', customer: '厦门环球供应链', totalFen: 15_000_000 },
];
