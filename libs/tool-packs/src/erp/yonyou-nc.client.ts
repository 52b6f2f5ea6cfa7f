import { JsonHttpClient } from '../common/json-http-client.js';
import { redact, secretFormsOf } from '../common/redaction.js';
import { UpstreamFormatError } from '../common/upstream-errors.js';
import {
  NC_ARRIVAL_QUERY_PATH,
  NC_HEADERS,
  NC_INVOICE_NOT_FOUND_CODE,
  NC_REFUND_SAVE_PATH,
  NC_REFUND_TOO_LARGE_CODE,
  NC_SUCCESS_CODE,
  NC_SUPPLIER_NOT_FOUND_CODE,
  YONYOU_NC_CONNECTOR,
} from './erp.constants.js';
import type { YonyouNcConfig } from './yonyou-nc.connector.js';
import { ncSignature } from './yonyou-nc.signature.js';

/** One purchase arrival line as NC spells it. */
export interface NcArrivalRow {
  /** Purchase order number. */
  readonly vbillcode: string;
  /** Supplier. */
  readonly cvendorid: string;
  /** Material (inventory) code. */
  readonly cinventoryid: string;
  /** Quantity, a UFDouble string. */
  readonly nnum: string;
  /** Unit. */
  readonly castunitid: string;
  /** Planned arrival, `YYYY-MM-DD HH:mm:ss`. */
  readonly dplanarrivedate: string;
  /** Actual arrival, `YYYY-MM-DD HH:mm:ss`; null before arrival. */
  readonly darrivedate: string | null;
  /** UFBoolean: `Y` when still open past the planned date. */
  readonly bisoverdue: 'Y' | 'N';
}

/** What a refund (红字) bill is saved from. */
export interface NcRefundRequest {
  /** The sales invoice refunded against. */
  readonly csaleinvoiceid: string;
  /** Refund amount, CNY, a UFDouble string. */
  readonly nrefundmny: string;
  /** Note: the refund's reason. */
  readonly vnote: string;
  /** The caller's source bill code, unique per bill: a repeat answers the first bill. */
  readonly vsrcbillcode: string;
}

/** The refund bill NC saved. */
export interface NcRefundBill {
  readonly vbillcode: string;
  readonly csaleinvoiceid: string;
  readonly nrefundmny: string;
  readonly ccurrencyid: string;
  /** What is left to refund on the invoice afterwards. */
  readonly nremainmny: string;
  /** `YYYY-MM-DD HH:mm:ss`. */
  readonly dbilldate: string;
}

/** NC's answer envelope: HTTP 200 with `code: '0'`, or another code and a message. */
interface NcAnswer<T> {
  readonly code?: string;
  readonly message?: string;
  readonly data?: T | null;
}

/**
 * NC refused a request with a business code (HTTP 200, `code` ≠ '0'). `status` is that HTTP
 * status, which also tells `isRetryable` not to retry: the same request gets the same refusal.
 */
export class YonyouNcBusinessError extends Error {
  override readonly name = 'YonyouNcBusinessError';
  readonly status = 200;

  constructor(
    readonly ncCode: string,
    message: string,
  ) {
    super(`${YONYOU_NC_CONNECTOR} refused the request: [${ncCode}] ${message}`);
  }
}

/** True when NC answered "no such supplier". */
export function isNcSupplierNotFound(err: unknown): boolean {
  return err instanceof YonyouNcBusinessError && err.ncCode === NC_SUPPLIER_NOT_FOUND_CODE;
}

/** True when NC answered "no such sales invoice". */
export function isNcInvoiceNotFound(err: unknown): boolean {
  return err instanceof YonyouNcBusinessError && err.ncCode === NC_INVOICE_NOT_FOUND_CODE;
}

/** True when NC refused a refund above the invoice's refundable amount. */
export function isNcRefundTooLarge(err: unknown): boolean {
  return err instanceof YonyouNcBusinessError && err.ncCode === NC_REFUND_TOO_LARGE_CODE;
}

/** One tenant's client of the NC open API. Signs every request; the secret never goes on the wire. */
export class YonyouNcClient {
  private readonly http: JsonHttpClient;
  private readonly secrets: string[];

  constructor(
    config: YonyouNcConfig,
    /** The clock the signature timestamp comes from; tests pass a skewed one. */
    now: () => number = Date.now,
  ) {
    this.secrets = secretFormsOf([config.appSecret]);
    this.http = new JsonHttpClient({
      name: YONYOU_NC_CONNECTOR,
      baseUrl: config.baseUrl,
      headers: { [NC_HEADERS.appKey]: config.appKey },
      secrets: [config.appSecret],
      signRequest: (req) => {
        const timestamp = String(now());
        const signature = ncSignature(config.appSecret, { appKey: config.appKey, timestamp, ...req });
        return { [NC_HEADERS.timestamp]: timestamp, [NC_HEADERS.signature]: signature };
      },
    });
  }

  /** Every arrival line of one supplier. */
  async arrivalsOf(supplierId: string, signal?: AbortSignal): Promise<readonly NcArrivalRow[]> {
    const answer = await this.http.post<NcAnswer<{ list?: readonly NcArrivalRow[] }>>(
      NC_ARRIVAL_QUERY_PATH,
      { cvendorid: supplierId },
      { signal },
    );
    this.checkCode(answer);
    const list = answer.data?.list;
    if (!Array.isArray(list))
      throw new UpstreamFormatError(
        YONYOU_NC_CONNECTOR,
        200,
        'POST',
        NC_ARRIVAL_QUERY_PATH,
        'no data.list array',
      );
    return list;
  }

  /** Saves a refund bill; NC answers the first bill again for a `vsrcbillcode` it has seen. */
  async saveRefund(request: NcRefundRequest, signal?: AbortSignal): Promise<NcRefundBill> {
    const answer = await this.http.post<NcAnswer<NcRefundBill>>(NC_REFUND_SAVE_PATH, request, { signal });
    this.checkCode(answer);
    const bill = answer.data;
    if (!bill || typeof bill.vbillcode !== 'string')
      throw new UpstreamFormatError(
        YONYOU_NC_CONNECTOR,
        200,
        'POST',
        NC_REFUND_SAVE_PATH,
        'no data.vbillcode',
      );
    return bill;
  }

  /** NC's business refusals (HTTP 200, `code` other than '0') as a typed error, secrets masked. */
  private checkCode<T>(answer: NcAnswer<T> | undefined): asserts answer is NcAnswer<T> {
    if (answer?.code !== NC_SUCCESS_CODE) {
      throw new YonyouNcBusinessError(
        String(answer?.code ?? '?'),
        redact(answer?.message ?? 'no message', this.secrets),
      );
    }
  }
}
