import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { QUOTAS_OPTIONS, type QuotasOptions } from '../quotas.options.js';

/** The per-key caps on work a key keeps open, by their settings name (`quotas:` in toolgate.yaml). */
export type KeyCap = 'runsInFlightPerKey' | 'runStreamsPerKey' | 'taskWaitsPerKey';

/** What each cap counts, for the refusal's text. */
const WHAT: Record<KeyCap, string> = {
  runsInFlightPerKey: 'runs in flight',
  runStreamsPerKey: 'open run streams',
  taskWaitsPerKey: 'open tasks/result waits',
};

/**
 * `Retry-After` of a refusal by a cap: a hint, since the cap frees as soon as one of the key's
 * runs, streams or waits ends, which nobody can foresee.
 */
export const KEY_CAP_RETRY_AFTER_SECONDS = 5;

/**
 * 429 RATE_LIMITED: the key already keeps as much open as its cap allows. `details`:
 * `{cap, limit, open, retryAfterSeconds}`; `Retry-After` says when to try again.
 */
export class KeyCapReachedError extends ToolgateError {
  constructor(
    readonly cap: KeyCap,
    readonly limit: number,
    open: number,
  ) {
    super(ErrorCode.RATE_LIMITED, {
      params: { quota: `${limit} ${WHAT[cap]} per key (${cap})` },
      details: { cap, limit, open, retryAfterSeconds: KEY_CAP_RETRY_AFTER_SECONDS },
      headers: { 'retry-after': String(KEY_CAP_RETRY_AFTER_SECONDS) },
    });
  }
}

/** Gives back a slot taken with `KeyConcurrency.take`; a second call does nothing. */
export type Release = () => void;

/**
 * Caps on what one key keeps open at once, so that no key can hold the gateway's connections,
 * polls and database reads for itself: open run streams and `tasks/result` waits are counted here,
 * in this process (each is a connection to this gateway); runs in flight are counted by the runs
 * lib in the database (a run outlives its request and moves between gateways) and checked with
 * `assertBelow`.
 */
@Injectable()
export class KeyConcurrency {
  private readonly open = new Map<string, number>();

  constructor(@Inject(QUOTAS_OPTIONS) private readonly options: QuotasOptions) {}

  /** The cap's limit. */
  limitOf(cap: KeyCap): number {
    return this.options[cap];
  }

  /** Takes one of the key's slots of `cap`; throws KeyCapReachedError when all are taken. */
  take(cap: Exclude<KeyCap, 'runsInFlightPerKey'>, tenantId: string, principalId: string): Release {
    const key = `${cap}\u0000${tenantId}\u0000${principalId}`;
    const now = this.open.get(key) ?? 0;
    this.assertBelow(cap, now);
    this.open.set(key, now + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left > 0) this.open.set(key, left);
      else this.open.delete(key);
    };
  }

  /** Throws KeyCapReachedError when `open` already reaches the cap's limit. */
  assertBelow(cap: KeyCap, open: number): void {
    const limit = this.limitOf(cap);
    if (open >= limit) throw new KeyCapReachedError(cap, limit, open);
  }

  /** Slots taken now, all caps and keys together (for tests and metrics). */
  get size(): number {
    let n = 0;
    for (const count of this.open.values()) n += count;
    return n;
  }
}
