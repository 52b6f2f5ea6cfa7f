import { sameSecret } from '../common/credentials.js';
import {
  LoopbackSimulator,
  type SimulatorRequest,
  type SimulatorResponse,
  type SimulatorStats,
} from '../common/loopback-simulator.js';
import { SAP_DEMO_DELIVERIES, SAP_DEMO_INVOICES, SAP_DEMO_SUPPLIERS, odataDate } from './sap-demo-data.js';
import {
  DEMO_SAP_CLIENT,
  DEMO_SAP_PASSWORD,
  DEMO_SAP_USERNAME,
  SAP_DELIVERY_ENTITY_SET,
  SAP_DELIVERY_SERVICE_PATH,
  SAP_INVOICE_NOT_FOUND_CODE,
  SAP_REFUND_ENTITY_SET,
  SAP_REFUND_SERVICE_PATH,
  SAP_REFUND_TOO_LARGE_CODE,
  SAP_REPEATABILITY_HEADER,
  SAP_SUPPLIER_NOT_FOUND_CODE,
} from './erp.constants.js';
import { decimalToFen, fenToDecimal, RefundLedger } from './refund-ledger.js';
import type { SapRefundRequest } from './sap.client.js';

/** Settings of a SAP simulator; defaults are the demo credentials. */
export interface SapSimulatorOptions {
  readonly client?: string;
  readonly username?: string;
  readonly password?: string;
}

const FILTER = /^Lifnr eq '((?:[^']|'')*)'$/;
// SAP answers a failed logon with an HTML page, not OData JSON.
const LOGON_FAILED_PAGE =
  '<html><head><title>Logon Error Message</title></head><body><h1>Anmeldung fehlgeschlagen</h1><p>Logon failed</p></body></html>';

/**
 * The demo SAP Gateway: `GET <SAP_DELIVERY_SERVICE_PATH>/DeliveryScheduleSet?$filter=Lifnr eq 'V10023'&$format=json`
 * answers `{ d: { results: [...] } }`. Needs basic auth and the `sap-client` header; an unknown
 * supplier is a 404 with an OData error body.
 * `POST <SAP_REFUND_SERVICE_PATH>/RefundRequestSet` creates a credit memo request against a billing
 * document (201 `{ d: {...} }`); it needs a `Repeatability-Request-ID` header, and the same id
 * answers the first request's document again (`Repeatability-Result: accepted`). Unknown billing
 * documents are 404, refunds above what is left on the document 400, each with an OData error.
 * The demo service does not ask for an `X-CSRF-Token` (as technical-user services are often set
 * up, SICF `~CHECK_CSRF_TOKEN=0`); a system that does needs the token fetched first.
 * @example const sap = new SapSimulator(); const baseUrl = await sap.start();
 */
export class SapSimulator extends LoopbackSimulator {
  readonly stats: SimulatorStats = { requests: 0, unauthorized: 0, abandoned: 0 };
  /** Credit memo requests booked; tests read what reached SAP here. */
  readonly refunds = new RefundLedger(SAP_DEMO_INVOICES, (n) => String(60_000_000 + n));
  private readonly expectedAuth: string;
  private readonly client: string;

  constructor(options: SapSimulatorOptions = {}) {
    super();
    const credentials = `${options.username ?? DEMO_SAP_USERNAME}:${options.password ?? DEMO_SAP_PASSWORD}`;
    this.expectedAuth = `Basic ${Buffer.from(credentials).toString('base64')}`;
    this.client = options.client ?? DEMO_SAP_CLIENT;
  }

  protected handle(req: SimulatorRequest): SimulatorResponse {
    if (
      !sameSecret(req.headers.authorization, this.expectedAuth) ||
      req.headers['sap-client'] !== this.client
    ) {
      this.stats.unauthorized++;
      return {
        status: 401,
        text: LOGON_FAILED_PAGE,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'www-authenticate': 'Basic realm="SAP NetWeaver Application Server"',
        },
      };
    }
    const path = `/${req.segments.join('/')}`;
    if (req.method === 'POST' && path === `${SAP_REFUND_SERVICE_PATH}/${SAP_REFUND_ENTITY_SET}`)
      return this.refund(req);
    if (
      req.method !== 'GET' ||
      `/${req.segments.join('/')}` !== `${SAP_DELIVERY_SERVICE_PATH}/${SAP_DELIVERY_ENTITY_SET}`
    ) {
      return odataError(
        404,
        '/IWFND/MED/170',
        `No service found for namespace, name '${req.segments.join('/')}'`,
      );
    }
    const match = FILTER.exec(req.query.get('$filter') ?? '');
    if (!match)
      return odataError(400, '/IWBEP/CM_MGW_RT/022', "Only $filter=Lifnr eq '<supplier>' is supported");
    const supplier = match[1]!.replace(/''/g, "'");
    if (!SAP_DEMO_SUPPLIERS.has(supplier))
      return odataError(
        404,
        SAP_SUPPLIER_NOT_FOUND_CODE,
        `Lieferant ${supplier} ist nicht vorhanden (supplier does not exist)`,
      );
    return { status: 200, body: { d: { results: SAP_DEMO_DELIVERIES.filter((r) => r.Lifnr === supplier) } } };
  }

  private refund(req: SimulatorRequest): SimulatorResponse {
    const requestKey = req.headers[SAP_REPEATABILITY_HEADER];
    if (typeof requestKey !== 'string' || !requestKey)
      return odataError(400, '/IWBEP/CM_MGW_RT/150', 'Repeatability-Request-ID header is required');
    const body = (req.body ?? {}) as Partial<Record<keyof SapRefundRequest, unknown>>;
    const amountFen = decimalToFen(body.Netwr);
    if (typeof body.Vgbel !== 'string' || amountFen === null || amountFen <= 0 || body.Waerk !== 'CNY')
      return odataError(400, '/IWBEP/CM_MGW_RT/021', 'Vgbel, Netwr (> 0) and Waerk CNY are required');
    const result = this.refunds.book({
      invoiceId: body.Vgbel,
      amountFen,
      reason: typeof body.Text === 'string' ? body.Text : '',
      requestKey,
    });
    if ('refused' in result) {
      if (result.refused === 'invoice_not_found')
        return odataError(
          404,
          SAP_INVOICE_NOT_FOUND_CODE,
          `Faktura ${body.Vgbel} ist nicht vorhanden (billing document does not exist)`,
        );
      if (result.refused === 'too_large')
        return odataError(
          400,
          SAP_REFUND_TOO_LARGE_CODE,
          `Gutschrift übersteigt den Restwert ${fenToDecimal(result.leftFen ?? 0)} CNY (credit exceeds the open value)`,
        );
      return odataError(422, '/IWBEP/CM_MGW_RT/151', 'Repeatability-Request-ID was used for another request');
    }
    const { refund, replayed } = result;
    return {
      status: 201,
      headers: replayed ? { 'repeatability-result': 'accepted' } : {},
      body: {
        d: {
          Vbeln: refund.refundId,
          Vgbel: refund.invoiceId,
          Auart: 'G2',
          Netwr: fenToDecimal(refund.amountFen),
          Waerk: 'CNY',
          Restwert: fenToDecimal(refund.leftFen),
          Erdat: odataDate(refund.at.slice(0, 10)),
        },
      },
    };
  }
}

function odataError(status: number, code: string, message: string): SimulatorResponse {
  return { status, body: { error: { code, message: { lang: 'en', value: message } } } };
}
