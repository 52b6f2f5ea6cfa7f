/** Settings of the calls lib (the `approvals` section of `toolgate.yaml` carries them, ADR 031). */
export interface CallsOptions {
  /** An Idempotency-Key is remembered this long. */
  readonly idempotencyTtlMs: number;
  /**
   * How long a request waits for another request with the same Idempotency-Key to finish before
   * it answers IDEMPOTENCY_IN_PROGRESS.
   */
  readonly idempotencyWaitMs: number;
  /** Pause between two looks at the other request (each look is an INSERT and a SELECT). */
  readonly idempotencyPollMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The defaults (`config/toolgate.yaml` shows them; a spec keeps the two equal). */
export const DEFAULT_CALLS_OPTIONS: CallsOptions = {
  idempotencyTtlMs: DAY_MS,
  idempotencyWaitMs: 40_000,
  idempotencyPollMs: 40,
};

export const CALLS_OPTIONS = Symbol('CALLS_OPTIONS');
