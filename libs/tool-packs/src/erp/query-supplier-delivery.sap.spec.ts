import { describe, expect, it } from 'vitest';
import { fromODataDate, fromSapRow } from './query-supplier-delivery.sap.js';
import { odataDate } from './sap-demo-data.js';

describe('SAP mapping', () => {
  it('reads OData v2 dates, with or without an offset', () => {
    expect(fromODataDate(odataDate('2025-11-01'))).toBe('2025-11-01');
    expect(fromODataDate('/Date(1761955200000+0000)/')).toBe('2025-11-01');
    expect(() => fromODataDate('2025-11-01')).toThrow(/not \/Date\(ms\)\//);
  });

  it('settles the status from the receipt date before the SAP status', () => {
    const base = {
      Ebeln: '1',
      Ebelp: '00010',
      Lifnr: 'V1',
      Matnr: 'M',
      Txz01: 't',
      Menge: '1.500',
      Meins: 'KG',
      Eindt: odataDate('2025-11-10'),
    };
    expect(fromSapRow({ ...base, Budat: odataDate('2025-11-10'), Status: 'C' })).toMatchObject({
      status: 'delivered',
      quantity: 1.5,
    });
    expect(fromSapRow({ ...base, Budat: odataDate('2025-11-11'), Status: 'C' }).status).toBe('late');
    expect(fromSapRow({ ...base, Budat: null, Status: 'V' }).status).toBe('late');
    expect(fromSapRow({ ...base, Budat: null, Status: 'A' })).toMatchObject({
      status: 'open',
      deliveredDate: null,
    });
  });
});
