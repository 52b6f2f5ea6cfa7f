// Public surface of the quotas lib.
export { QuotaHook } from './quota.hook.js';
export { MemoryQuotaStore, RedisQuotaStore } from './quota-store.js';
export type { QuotaStore, WindowCount } from './quota-store.js';
export { QuotasModule } from './quotas.module.js';
export { DEFAULT_QUOTAS_OPTIONS } from './quotas.options.js';
export type { QuotasOptions } from './quotas.options.js';
