import { JsonHttpClient } from '../common/json-http-client.js';
import { UpstreamFormatError, UpstreamHttpError } from '../common/upstream-errors.js';
import {
  SAP_CONNECTOR,
  SAP_DELIVERY_ENTITY_SET,
  SAP_DELIVERY_SERVICE_PATH,
  SAP_INVOICE_NOT_FOUND_CODE,
  SAP_REFUND_ENTITY_SET,
  SAP_REFUND_SERVICE_PATH,
  SAP_REFUND_TOO_LARGE_CODE,
  SAP_REPEATABILITY_HEADER,
  SAP_SUPPLIER_NOT_FOUND_CODE,
} from './erp.constants.js';
import type { SapConfig } from './sap.connector.js';

/**
 * One schedule line as the OData service spells it: SAP field names, decimals as strings,
 * dates as `/Date(ms)/`.
 */
export interface SapDeliveryRow {
  /** Purchasing document number. */
  readonly Ebeln: string;
  /** Item number. */
  readonly Ebelp: string;
  /** Supplier (vendor) number. */
  readonly Lifnr: string;
  /** Material number. */
  readonly Matnr: string;
  /** Short text. */
  readonly Txz01: string;
  /** Scheduled quantity, an Edm.Decimal string. */
  readonly Menge: string;
  /** Order unit (SAP internal: ST, KG, ...). */
  readonly Meins: string;
  /** Delivery date of the schedule line. */
  readonly Eindt: string;
  /** Posting date of the goods receipt; null before receipt. */
  readonly Budat: string | null;
  /** A open, C goods received, V overdue (still open past Eindt). */
  readonly Status: string;
}

/** What a credit memo request is created from: the billing document, the amount, the text. */
export interface SapRefundRequest {
  /** Reference billing document (Faktura). */
  readonly Vgbel: string;
  /** Net value to credit, an Edm.Decimal string. */
  readonly Netwr: string;
  /** Document currency. */
  readonly Waerk: 'CNY';
  /** Header text: the refund's reason. */
  readonly Text: string;
}

/** The credit memo request SAP created. */
export interface SapRefundRow {
  /** The credit memo request's number. */
  readonly Vbeln: string;
  readonly Vgbel: string;
  /** Sales document type: G2, credit memo request. */
  readonly Auart: string;
  readonly Netwr: string;
  readonly Waerk: string;
  /** What is left to credit on the billing document afterwards. */
  readonly Restwert: string;
  /** Created on, `/Date(ms)/`. */
  readonly Erdat: string;
}

/** The OData v2 JSON envelope of an entity set. */
interface ODataCollection<T> {
  readonly d?: { readonly results?: readonly T[] };
}

/** True when SAP answered "no such supplier" (not a wrong path or a logon failure). */
export function isSapSupplierNotFound(err: unknown): boolean {
  return (
    err instanceof UpstreamHttpError && err.status === 404 && err.upstreamCode === SAP_SUPPLIER_NOT_FOUND_CODE
  );
}

/** True when SAP answered "no such billing document". */
export function isSapInvoiceNotFound(err: unknown): boolean {
  return (
    err instanceof UpstreamHttpError && err.status === 404 && err.upstreamCode === SAP_INVOICE_NOT_FOUND_CODE
  );
}

/** True when SAP refused a refund above what is left on the billing document. */
export function isSapRefundTooLarge(err: unknown): boolean {
  return (
    err instanceof UpstreamHttpError && err.status === 400 && err.upstreamCode === SAP_REFUND_TOO_LARGE_CODE
  );
}

/** One tenant's client of the SAP delivery and refund services. */
export class SapClient {
  private readonly http: JsonHttpClient;

  constructor(config: SapConfig) {
    const basic = Buffer.from(`${config.username}:${config.password}`).toString('base64');
    this.http = new JsonHttpClient({
      name: SAP_CONNECTOR,
      baseUrl: config.baseUrl,
      headers: { authorization: `Basic ${basic}`, 'sap-client': config.client },
      secrets: [config.password],
    });
  }

  /** Every schedule line of one supplier. */
  async deliverySchedules(supplierId: string, signal?: AbortSignal): Promise<readonly SapDeliveryRow[]> {
    const path = `${SAP_DELIVERY_SERVICE_PATH}/${SAP_DELIVERY_ENTITY_SET}`;
    // OData string literals escape a quote by doubling it.
    const filter = `Lifnr eq '${supplierId.replace(/'/g, "''")}'`;
    const body = await this.http.get<ODataCollection<SapDeliveryRow>>(path, {
      query: { $filter: filter, $format: 'json' },
      signal,
    });
    const rows = body?.d?.results;
    if (!Array.isArray(rows))
      throw new UpstreamFormatError(SAP_CONNECTOR, 200, 'GET', path, 'no d.results array');
    return rows;
  }

  /**
   * Creates a credit memo request. `requestId` goes as `Repeatability-Request-ID`: SAP answers the
   * first request's document to a repeat, so a re-run or a retried call books one refund.
   */
  async createRefund(
    request: SapRefundRequest,
    requestId: string,
    signal?: AbortSignal,
  ): Promise<SapRefundRow> {
    const path = `${SAP_REFUND_SERVICE_PATH}/${SAP_REFUND_ENTITY_SET}`;
    const body = await this.http.post<{ d?: SapRefundRow }>(path, request, {
      headers: { [SAP_REPEATABILITY_HEADER]: requestId },
      signal,
    });
    const row = body?.d;
    if (!row || typeof row.Vbeln !== 'string')
      throw new UpstreamFormatError(SAP_CONNECTOR, 201, 'POST', path, 'no d.Vbeln');
    return row;
  }
}
