/** Settings of the approvals lib. */
export interface ApprovalsOptions {
  /** An approval not decided within this time expires (APPROVAL_EXPIRED). */
  readonly expiryMs: number;
  /** How often a gateway looks for approved calls nobody ran, and for expired approvals. */
  readonly pollMs: number;
  /** An approved call still queued after this long is taken for orphaned and run by any gateway. */
  readonly orphanAfterMs: number;
  /**
   * Redis shared by the gateways (`REDIS_URL`): decisions wake waiters on every gateway, and
   * approved calls a dead gateway held are taken over within a lease. Without it, polling only.
   */
  readonly redisUrl?: string;
  /** Namespace of the Redis keys and channels (`TOOLGATE_REDIS_PREFIX`). */
  readonly redisPrefix?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The defaults (`config/toolgate.yaml` shows them; a spec keeps the two equal). */
export const DEFAULT_APPROVALS_OPTIONS: ApprovalsOptions = {
  expiryMs: DAY_MS,
  pollMs: 2_000,
  orphanAfterMs: 5_000,
};

export const APPROVALS_OPTIONS = Symbol('APPROVALS_OPTIONS');
