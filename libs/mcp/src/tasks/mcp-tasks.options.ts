/** Settings of MCP tasks (issue 11). */
export interface McpTasksOptions {
  /** `pollInterval` suggested to clients, and how often a waiting `tasks/result` reads the database. */
  readonly pollIntervalMs: number;
  /**
   * How long one `tasks/result` request waits for its task to end before it answers a
   * "still working, ask again" error: below the SDK client's default 60 s request timeout, so the
   * client reads a clear answer rather than its own timeout.
   */
  readonly resultWaitMs: number;
  /**
   * The same bound for a `tasks/result` that gave a progress token: the answer becomes a stream
   * that carries a progress notification every `heartbeatMs` (the connection stays alive and the
   * SDK client, with `resetTimeoutOnProgress`, keeps waiting).
   */
  readonly streamedResultWaitMs: number;
  readonly heartbeatMs: number;
  /** The approvals' expiry: a task lives at least that long plus `resultRetentionMs`. */
  readonly approvalExpiryMs: number;
  /** How long a task's result stays readable after the longest approval could have ended. */
  readonly resultRetentionMs: number;
  /** No task outlives this, whatever ttl the client asks for. */
  readonly maxTtlMs: number;
  /**
   * A task whose call left no trace (no record, no answer) after this long ran on a gateway that
   * stopped: it reads as failed (INTERRUPTED). Above the longest tool time limit.
   */
  readonly lostAfterMs: number;
}

const HOUR_MS = 60 * 60 * 1000;

export const DEFAULT_MCP_TASKS_OPTIONS: McpTasksOptions = {
  pollIntervalMs: 1_000,
  resultWaitMs: 50_000,
  streamedResultWaitMs: 15 * 60 * 1000,
  heartbeatMs: 15_000,
  approvalExpiryMs: 24 * HOUR_MS,
  resultRetentionMs: HOUR_MS,
  maxTtlMs: 7 * 24 * HOUR_MS,
  lostAfterMs: 5 * 60 * 1000,
};

export const MCP_TASKS_OPTIONS = Symbol('MCP_TASKS_OPTIONS');
