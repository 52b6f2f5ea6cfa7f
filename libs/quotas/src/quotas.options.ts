/** Settings of the quotas lib (`quotas:` in `config/toolgate.yaml`). */
export interface QuotasOptions {
  /** With a Redis URL the limits hold across gateways; without, per process. */
  readonly redisUrl?: string;
  /** Key prefix in Redis, to share one Redis between deployments. */
  readonly redisPrefix: string;
  /**
   * How long a tenant's quota list is reused before the tenant is read again. A quota changed on
   * another gateway applies within this time.
   */
  readonly quotaCacheTtlMs: number;
  /**
   * The platform's ceiling on every tenant's model tokens per UTC day: a tenant file (or an import
   * through the admin API) naming a larger `tokensPerDay` is refused, and a tenant without a cap of
   * its own is held to it. `null`: no ceiling.
   */
  readonly maxTokensPerDay: number | null;
  /** Runs of one key that have not ended (running or awaiting approval), on every gateway together. */
  readonly runsInFlightPerKey: number;
  /** Open run event streams (SSE) of one key on one gateway. */
  readonly runStreamsPerKey: number;
  /** MCP `tasks/result` requests of one key waiting on one gateway. */
  readonly taskWaitsPerKey: number;
}

/** The defaults of the settings file (`config/toolgate.yaml` shows them; a spec keeps the two equal). */
export const DEFAULT_QUOTAS_OPTIONS: Pick<
  QuotasOptions,
  'quotaCacheTtlMs' | 'maxTokensPerDay' | 'runsInFlightPerKey' | 'runStreamsPerKey' | 'taskWaitsPerKey'
> = {
  quotaCacheTtlMs: 5_000,
  maxTokensPerDay: 10_000_000,
  runsInFlightPerKey: 20,
  runStreamsPerKey: 10,
  taskWaitsPerKey: 10,
};

export const QUOTAS_OPTIONS = Symbol('QUOTAS_OPTIONS');
