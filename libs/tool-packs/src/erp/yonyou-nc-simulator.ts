import { sameSecret } from '../common/credentials.js';
import {
  LoopbackSimulator,
  type SimulatorRequest,
  type SimulatorResponse,
  type SimulatorStats,
} from '../common/loopback-simulator.js';
import {
  DEMO_NC_APP_KEY,
  DEMO_NC_APP_SECRET,
  NC_ARRIVAL_QUERY_PATH,
  NC_HEADERS,
  NC_MAX_CLOCK_SKEW_MS,
  NC_SIGNATURE_INVALID_CODE,
  NC_SUCCESS_CODE,
  NC_SUPPLIER_NOT_FOUND_CODE,
} from './erp.constants.js';
import { NC_DEMO_ARRIVALS, NC_DEMO_SUPPLIERS } from './yonyou-nc-demo-data.js';
import { ncSignature } from './yonyou-nc.signature.js';

/** Settings of an NC simulator; defaults are the demo credentials. */
export interface YonyouNcSimulatorOptions {
  readonly appKey?: string;
  readonly appSecret?: string;
}

/**
 * The demo NC Cloud open API: `POST /nccloud/api/pu/arrival/querybyvendor` with `{ cvendorid }`
 * answers `{ code: '0', data: { list: [...] } }`. Checks the app key, the HMAC signature and the
 * timestamp window (HTTP 401 otherwise); an unknown supplier is HTTP 200 with code 20004, the way
 * NC reports business failures.
 * @example const nc = new YonyouNcSimulator(); const baseUrl = await nc.start();
 */
export class YonyouNcSimulator extends LoopbackSimulator {
  readonly stats: SimulatorStats = { requests: 0, unauthorized: 0, abandoned: 0 };
  private readonly appKey: string;
  private readonly appSecret: string;

  constructor(options: YonyouNcSimulatorOptions = {}) {
    super();
    this.appKey = options.appKey ?? DEMO_NC_APP_KEY;
    this.appSecret = options.appSecret ?? DEMO_NC_APP_SECRET;
  }

  protected handle(req: SimulatorRequest): SimulatorResponse {
    const pathWithQuery = `/${req.segments.join('/')}${req.query.size ? `?${req.query.toString()}` : ''}`;
    if (!this.signedCorrectly(req, pathWithQuery)) {
      this.stats.unauthorized++;
      return {
        status: 401,
        body: { code: NC_SIGNATURE_INVALID_CODE, message: '签名校验失败或请求已过期', data: null },
      };
    }
    if (req.method !== 'POST' || pathWithQuery !== NC_ARRIVAL_QUERY_PATH) {
      return {
        status: 404,
        body: { code: '404', message: `接口不存在：${req.method} ${pathWithQuery}`, data: null },
      };
    }
    const vendor = (req.body as { cvendorid?: unknown } | undefined)?.cvendorid;
    if (typeof vendor !== 'string' || !NC_DEMO_SUPPLIERS.has(vendor)) {
      return {
        status: 200,
        body: { code: NC_SUPPLIER_NOT_FOUND_CODE, message: `供应商 ${String(vendor)} 不存在`, data: null },
      };
    }
    const list = NC_DEMO_ARRIVALS.filter((r) => r.cvendorid === vendor);
    return {
      status: 200,
      body: { code: NC_SUCCESS_CODE, message: 'success', data: { list, total: list.length } },
    };
  }

  private signedCorrectly(req: SimulatorRequest, pathWithQuery: string): boolean {
    const appKey = req.headers[NC_HEADERS.appKey];
    const timestamp = req.headers[NC_HEADERS.timestamp];
    const signature = req.headers[NC_HEADERS.signature];
    if (typeof appKey !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string')
      return false;
    if (!sameSecret(appKey, this.appKey)) return false;
    if (!(Math.abs(Date.now() - Number(timestamp)) <= NC_MAX_CLOCK_SKEW_MS)) return false;
    const expected = ncSignature(this.appSecret, {
      appKey,
      timestamp,
      method: req.method,
      pathWithQuery,
      body: req.rawBody,
    });
    return sameSecret(signature, expected);
  }
}
