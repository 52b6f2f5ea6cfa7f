import type { SapDeliveryRow } from './sap.client.js';
import type { DemoInvoice } from './refund-ledger.js';

/** A date as OData v2 JSON writes it: `/Date(<ms since epoch, UTC>)/`. */
export function odataDate(day: string): string {
  return `/Date(${Date.parse(`${day}T00:00:00Z`)})/`;
}

function row(
  Ebeln: string,
  Lifnr: string,
  Matnr: string,
  Txz01: string,
  Menge: string,
  Meins: string,
  eindt: string,
  budat: string | null,
  Status: 'A' | 'C' | 'V',
): SapDeliveryRow {
  return {
    Ebeln,
    Ebelp: '00010',
    Lifnr,
    Matnr,
    Txz01,
    Menge,
    Meins,
    Eindt: odataDate(eindt),
    Budat: budat ? odataDate(budat) : null,
    Status,
  };
}

/**
 * The demo SAP system's schedule lines. Different orders and numbers from the NC demo, so a test
 * can tell which implementation answered. V10023: 2 on time, 2 late, 1 open (on-time rate 0.5);
 * V20001: 2 on time, 1 open (1.0).
 */
export const SAP_DEMO_DELIVERIES: readonly SapDeliveryRow[] = [
  row(
    '4500012345',
    'V10023',
    'MAT-100245',
    'M8 不锈钢螺栓',
    '5000.000',
    'ST',
    '2025-10-15',
    '2025-10-14',
    'C',
  ),
  row('4500012346', 'V10023', 'MAT-100311', '铝合金支架', '1200.000', 'ST', '2025-10-28', '2025-11-03', 'C'),
  row(
    '4500012388',
    'V10023',
    'MAT-100245',
    'M8 不锈钢螺栓',
    '8000.000',
    'ST',
    '2025-11-10',
    '2025-11-10',
    'C',
  ),
  row('4500012402', 'V10023', 'MAT-200017', '冷轧钢板 1.5mm', '3500.000', 'KG', '2025-11-20', null, 'V'),
  row('4500012455', 'V10023', 'MAT-100311', '铝合金支架', '900.000', 'ST', '2025-12-15', null, 'A'),
  row('4500013001', 'V20001', 'MAT-300120', '电源模块 24V', '600.000', 'ST', '2025-10-20', '2025-10-18', 'C'),
  row('4500013007', 'V20001', 'MAT-300188', 'J30 连接器', '20000.000', 'ST', '2025-11-05', '2025-11-05', 'C'),
  row('4500013020', 'V20001', 'MAT-300120', '电源模块 24V', '400.000', 'ST', '2025-12-01', null, 'A'),
];

/** Suppliers the demo SAP system knows (one without open schedule lines included). */
export const SAP_DEMO_SUPPLIERS: ReadonlySet<string> = new Set(['V10023', 'V20001', 'V30005']);

/**
 * Billing documents (Fakturen) of the demo SAP system a refund may reference, amounts in fen:
 * one small, one mid-size, one large enough for the demo rule's refusal to matter.
 */
export const SAP_DEMO_INVOICES: readonly DemoInvoice[] = [
  { invoiceId: '90012001', customer: '华东机电设备有限公司', totalFen: 860_000 },
  { invoiceId: '90012002', customer: '深圳华南自动化科技', totalFen: 3_600_000 },
  { invoiceId: '90012003', customer: '苏州工业园区精工装备', totalFen: 12_000_000 },
];
