/** Settings of the approvals lib. */
export interface ApprovalsOptions {
  /** An approval not decided within this time expires (APPROVAL_EXPIRED). Default 24 h. */
  readonly expiryMs: number;
  /** An Idempotency-Key is remembered this long. Default 24 h. */
  readonly idempotencyTtlMs: number;
  /** How often a gateway looks for approved calls nobody ran, and for expired approvals. */
  readonly pollMs: number;
}

export const APPROVALS_OPTIONS = Symbol('APPROVALS_OPTIONS');
