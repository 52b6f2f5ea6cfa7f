import { DEFAULT_UPSTREAM_REFRESH_MS } from './constants.js';

/** Options of `UpstreamsModule.forRoot`. */
export interface UpstreamsOptions {
  /** How often every upstream's tools are compared with their pinned definitions. */
  readonly refreshIntervalMs: number;
}

export const UPSTREAMS_OPTIONS = Symbol('UPSTREAMS_OPTIONS');

export const DEFAULT_UPSTREAMS_OPTIONS: UpstreamsOptions = { refreshIntervalMs: DEFAULT_UPSTREAM_REFRESH_MS };
