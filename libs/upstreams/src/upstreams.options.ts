import {
  DEFAULT_UPSTREAM_REFRESH_MS,
  REFRESH_CONCURRENCY,
  REFRESH_CONCURRENCY_PER_TENANT,
  UPSTREAM_REFRESH_TIMEOUT_MS,
} from './constants.js';
import type { RefreshQueueLimits } from './refresh-queue.js';

/** Options of `UpstreamsModule.forRoot`. */
export interface UpstreamsOptions {
  /** How often every upstream's tools are compared with their pinned definitions. */
  readonly refreshIntervalMs: number;
  /** Refreshes at once, per tenant, and the time limit of each (periodic and notified ones). */
  readonly refresh: RefreshQueueLimits;
}

export const UPSTREAMS_OPTIONS = Symbol('UPSTREAMS_OPTIONS');

export const DEFAULT_UPSTREAMS_OPTIONS: UpstreamsOptions = {
  refreshIntervalMs: DEFAULT_UPSTREAM_REFRESH_MS,
  refresh: {
    concurrency: REFRESH_CONCURRENCY,
    perTenant: REFRESH_CONCURRENCY_PER_TENANT,
    timeoutMs: UPSTREAM_REFRESH_TIMEOUT_MS,
  },
};
