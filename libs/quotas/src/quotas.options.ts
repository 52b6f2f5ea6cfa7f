/** Settings of the quotas lib. */
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
}

/** The defaults of the settings file (`config/toolgate.yaml` shows them; a spec keeps the two equal). */
export const DEFAULT_QUOTAS_OPTIONS: Pick<QuotasOptions, 'quotaCacheTtlMs'> = { quotaCacheTtlMs: 5_000 };

export const QUOTAS_OPTIONS = Symbol('QUOTAS_OPTIONS');
