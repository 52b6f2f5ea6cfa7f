/** Settings of the quotas lib. */
export interface QuotasOptions {
  /** With a Redis URL the limits hold across gateways; without, per process. */
  readonly redisUrl?: string;
  /** Key prefix in Redis, to share one Redis between deployments. */
  readonly redisPrefix: string;
}

export const QUOTAS_OPTIONS = Symbol('QUOTAS_OPTIONS');
