/** One invoice a demo ERP can refund against, amounts in fen (integers: no float drift). */
export interface DemoInvoice {
  readonly invoiceId: string;
  readonly customer: string;
  /** The invoice's gross amount, in fen. */
  readonly totalFen: number;
}

/** A refund a demo ERP booked. */
export interface BookedRefund {
  readonly refundId: string;
  readonly invoiceId: string;
  readonly amountFen: number;
  readonly reason: string;
  /** The caller's deduplication key (SAP's repeatability id, NC's source bill code). */
  readonly requestKey: string;
  readonly at: string;
  /** What is left to refund on the invoice after this refund, in fen. */
  readonly leftFen: number;
}

/** Why a refund was not booked. */
export type RefundRefusal = 'invoice_not_found' | 'too_large' | 'key_reused';

/**
 * The refund book both demo ERPs keep: refunds per invoice never exceed its amount, and a request
 * key seen before answers its first refund instead of booking another (the upstream half of
 * docs/tool-design-rules.md §4.10). Amounts in fen.
 */
export class RefundLedger {
  /** Refunds booked (replays excluded), in order. */
  readonly booked: BookedRefund[] = [];
  private readonly byKey = new Map<string, BookedRefund>();
  private readonly refundedFen = new Map<string, number>();
  private readonly invoices: ReadonlyMap<string, DemoInvoice>;

  constructor(
    invoices: readonly DemoInvoice[],
    /** The refund document number of the n-th refund (1-based), as the ERP numbers them. */
    private readonly numberOf: (n: number) => string,
  ) {
    this.invoices = new Map(invoices.map((i) => [i.invoiceId, i]));
  }

  /** Books a refund, or answers the one booked under the same key, or says why not. */
  book(
    request: Omit<BookedRefund, 'refundId' | 'at' | 'leftFen'>,
  ): { refund: BookedRefund; replayed: boolean } | { refused: RefundRefusal; leftFen?: number } {
    const known = this.byKey.get(request.requestKey);
    if (known) {
      return known.invoiceId === request.invoiceId && known.amountFen === request.amountFen
        ? { refund: known, replayed: true }
        : { refused: 'key_reused' };
    }
    const invoice = this.invoices.get(request.invoiceId);
    if (!invoice) return { refused: 'invoice_not_found' };
    const left = invoice.totalFen - (this.refundedFen.get(invoice.invoiceId) ?? 0);
    if (request.amountFen > left) return { refused: 'too_large', leftFen: left };
    const refund: BookedRefund = {
      ...request,
      refundId: this.numberOf(this.booked.length + 1),
      at: new Date().toISOString(),
      leftFen: left - request.amountFen,
    };
    this.refundedFen.set(invoice.invoiceId, invoice.totalFen - refund.leftFen);
    this.byKey.set(request.requestKey, refund);
    this.booked.push(refund);
    return { refund, replayed: false };
  }
}

/** `1234.5` (CNY, from the contract) → `123450` fen; the contract allows two decimals at most. */
export function toFen(amountCny: number): number {
  return Math.round(amountCny * 100);
}

/** `123450` fen → `'1234.50'`, the decimal string both ERPs write. */
export function fenToDecimal(fen: number): string {
  return `${Math.trunc(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** `'1234.50'` → `123450` fen; null when it is not a non-negative decimal with at most two places. */
export function decimalToFen(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}
