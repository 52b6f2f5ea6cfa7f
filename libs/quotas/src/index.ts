// Public surface of the quotas lib.
import { TenantTokenDays1764600310000 } from './migrations/1764600310000-tenant-token-days.js';

export { CallQuotas } from './call-quotas.js';
export type { QuotaAsk } from './call-quotas.js';
export {
  KEY_CAP_RETRY_AFTER_SECONDS,
  KeyCapReachedError,
  KeyConcurrency,
} from './concurrency/key-concurrency.js';
export type { KeyCap, Release } from './concurrency/key-concurrency.js';
export { QuotaHook } from './quota.hook.js';
export { MemoryQuotaStore, RedisQuotaStore } from './quota-store.js';
export type { QuotaStore, WindowCount } from './quota-store.js';
export { QuotasModule } from './quotas.module.js';
export { DEFAULT_QUOTAS_OPTIONS } from './quotas.options.js';
export type { QuotasOptions } from './quotas.options.js';
export { dayBudgetEnvelope, DayBudgetSpentError } from './tokens/day-budget.js';
export type { DayBudget } from './tokens/day-budget.js';
export { tenantQuotasSchema, tenantQuotasSection } from './tenant-quota-settings.js';
export type { CallQuota, Quota, TokenQuota } from './tenant-quota-settings.js';
export { TokenBudget } from './tokens/token-budget.js';
export type { TokenDayOverview } from './tokens/token-budget.js';
export { nextUtcMidnight, utcDay } from './tokens/utc-day.js';
export { TenantTokenDays1764600310000 };

/** The quotas lib's migrations, in order. */
export const QUOTAS_MIGRATIONS = [TenantTokenDays1764600310000];
