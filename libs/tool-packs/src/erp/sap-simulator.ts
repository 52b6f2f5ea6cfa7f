import { sameSecret } from '../common/credentials.js';
import {
  LoopbackSimulator,
  type SimulatorRequest,
  type SimulatorResponse,
  type SimulatorStats,
} from '../common/loopback-simulator.js';
import { SAP_DEMO_DELIVERIES, SAP_DEMO_SUPPLIERS } from './sap-demo-data.js';
import {
  DEMO_SAP_CLIENT,
  DEMO_SAP_PASSWORD,
  DEMO_SAP_USERNAME,
  SAP_DELIVERY_ENTITY_SET,
  SAP_DELIVERY_SERVICE_PATH,
  SAP_SUPPLIER_NOT_FOUND_CODE,
} from './erp.constants.js';

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
 * @example const sap = new SapSimulator(); const baseUrl = await sap.start();
 */
export class SapSimulator extends LoopbackSimulator {
  readonly stats: SimulatorStats = { requests: 0, unauthorized: 0, abandoned: 0 };
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
}

function odataError(status: number, code: string, message: string): SimulatorResponse {
  return { status, body: { error: { code, message: { lang: 'en', value: message } } } };
}
