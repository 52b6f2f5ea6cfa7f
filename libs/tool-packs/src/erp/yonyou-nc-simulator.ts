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
  NC_INVOICE_NOT_FOUND_CODE,
  NC_MAX_CLOCK_SKEW_MS,
  NC_REFUND_SAVE_PATH,
  NC_REFUND_TOO_LARGE_CODE,
  NC_SIGNATURE_INVALID_CODE,
  NC_SUCCESS_CODE,
  NC_SUPPLIER_NOT_FOUND_CODE,
} from './erp.constants.js';
import { decimalToFen, fenToDecimal, RefundLedger } from './refund-ledger.js';
import type { NcRefundRequest } from './yonyou-nc.client.js';
import { NC_DEMO_ARRIVALS, NC_DEMO_INVOICES, NC_DEMO_SUPPLIERS } from './yonyou-nc-demo-data.js';
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
 * `POST /nccloud/api/so/saleinvoice/refund/save` with `{ csaleinvoiceid, nrefundmny, vnote,
 * vsrcbillcode }` saves a refund (红字) bill against a sales invoice. `vsrcbillcode` is the caller's
 * source bill code, unique per bill: a second save with the same code answers the first bill.
 * Unknown invoices and refunds above the refundable amount are HTTP 200 with a business code.
 * @example const nc = new YonyouNcSimulator(); const baseUrl = await nc.start();
 */
export class YonyouNcSimulator extends LoopbackSimulator {
  readonly stats: SimulatorStats = { requests: 0, unauthorized: 0, abandoned: 0 };
  /** Refund bills saved; tests read what reached NC here. */
  readonly refunds = new RefundLedger(
    NC_DEMO_INVOICES,
    (n) => `XSTK${new Date().getFullYear()}${String(n).padStart(6, '0')}`,
  );
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
    if (req.method === 'POST' && pathWithQuery === NC_REFUND_SAVE_PATH) return this.refund(req);
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

  private refund(req: SimulatorRequest): SimulatorResponse {
    const body = (req.body ?? {}) as Partial<Record<keyof NcRefundRequest, unknown>>;
    const amountFen = decimalToFen(body.nrefundmny);
    if (
      typeof body.csaleinvoiceid !== 'string' ||
      typeof body.vsrcbillcode !== 'string' ||
      !body.vsrcbillcode ||
      amountFen === null ||
      amountFen <= 0
    ) {
      return ncFailure('20001', '参数错误：csaleinvoiceid、nrefundmny（大于 0）和 vsrcbillcode 必填');
    }
    const result = this.refunds.book({
      invoiceId: body.csaleinvoiceid,
      amountFen,
      reason: typeof body.vnote === 'string' ? body.vnote : '',
      requestKey: body.vsrcbillcode,
    });
    if ('refused' in result) {
      if (result.refused === 'invoice_not_found')
        return ncFailure(NC_INVOICE_NOT_FOUND_CODE, `销售发票 ${body.csaleinvoiceid} 不存在`);
      if (result.refused === 'too_large')
        return ncFailure(
          NC_REFUND_TOO_LARGE_CODE,
          `退款金额超过发票可退余额 ${fenToDecimal(result.leftFen ?? 0)} 元`,
        );
      return ncFailure('20013', `来源单据号 ${body.vsrcbillcode} 已用于另一张退款单`);
    }
    const { refund } = result;
    return {
      status: 200,
      body: {
        code: NC_SUCCESS_CODE,
        message: 'success',
        data: {
          vbillcode: refund.refundId,
          csaleinvoiceid: refund.invoiceId,
          nrefundmny: fenToDecimal(refund.amountFen),
          ccurrencyid: 'CNY',
          nremainmny: fenToDecimal(refund.leftFen),
          dbilldate: `${refund.at.slice(0, 10)} ${refund.at.slice(11, 19)}`,
          vsrcbillcode: refund.requestKey,
        },
      },
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

/** NC's business failure: HTTP 200, a code other than '0'. */
function ncFailure(code: string, message: string): SimulatorResponse {
  return { status: 200, body: { code, message, data: null } };
}
