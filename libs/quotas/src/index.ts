// Every export is public API of @toolgate/quotas: call quotas, key concurrency and token budgets.
import { TenantTokenDays1764600310000 } from './migrations/1764600310000-tenant-token-days.js';

export { CallQuotas } from './call-quotas.js';
export { KeyConcurrency } from './concurrency/key-concurrency.js';
export { QuotasModule } from './quotas.module.js';
export { DEFAULT_QUOTAS_OPTIONS } from './quotas.options.js';
export type { QuotasOptions } from './quotas.options.js';
export { tenantQuotasSection } from './tenant-quota-settings.js';
export { TokenBudget } from './tokens/token-budget.js';

/** The quotas lib's migrations, in order. */
export const QUOTAS_MIGRATIONS = [TenantTokenDays1764600310000];
