/** Settings of the ops routes. */
export interface OpsOptions {
  /** The bearer token a Prometheus scraper sends to read `/metrics` (TOOLGATE_METRICS_TOKEN); unset: platform admins' keys only. */
  readonly metricsToken?: string;
}

export const OPS_OPTIONS = Symbol('OPS_OPTIONS');
