import type { SiemRecord } from '../formats/siem-record.js';

/** Which events a batch holds: what a receiver can deduplicate a resent batch by. */
export interface BatchRef {
  readonly sink: string;
  readonly tenantId: string;
  readonly fromSeq: number;
  readonly toSeq: number;
}

/**
 * What one attempt to deliver a batch came to. `delivered`: the receiver took every record.
 * `refused`: it answered that it will never take them (a permanent refusal; split, then dead
 * letters). `failed`: nothing is known to have arrived; `answered` says whether the receiver
 * itself answered (a 5xx, counted toward splitting) or could not be reached at all (retried as
 * long as it takes).
 */
export type SendOutcome =
  | { readonly kind: 'delivered' }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'failed'; readonly answered: boolean; readonly reason: string };

/** A way to a receiver. */
export interface SinkTransport {
  send(records: readonly SiemRecord[], batch: BatchRef): Promise<SendOutcome>;
  close(): Promise<void>;
}

/** The first `max` characters of a failure's text (it ends up in logs, metrics labels never). */
export const reasonOf = (err: unknown, max = 300): string =>
  (err instanceof Error ? err.message : String(err)).slice(0, max);
