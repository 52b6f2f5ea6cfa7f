// Every export is public API of @toolgate/database: one connection from DATABASE_URL, migrations under a lock.
import { CreateGatewayInstances1764479900000 } from './migrations/1764479900000-create-gateway-instances.js';

export { DatabaseModule } from './database.module.js';
export {
  DEFAULT_POOL_SIZE,
  dataSourceOptions,
  defaultDatabaseUrl,
  parseDatabaseUrl,
} from './database-url.js';
export { deploymentRedisPrefix } from './deployment-identity.js';
export { runMigrationsLocked } from './migration-runner.js';
export type { AppendOnlyTables } from './migration-runner.js';
export type { PurgeExemption } from './append-only.js';
export { PeriodicSweep, runPeriodically } from './periodic.js';
export { PLATFORM_TENANT } from './platform-tenant.js';
export {
  insertUnlessTaken,
  isDeadlock,
  isMysql,
  isRetryableTransactionError,
  isUniqueViolation,
  mysqlLiteral,
} from './sql-dialect.js';
export { fromSqlDateTime, toSqlDateTime } from './sql-time.js';
export { RefreshingCache } from './refreshing-cache.js';
export { StatementRefusedError, TransactionRunner } from './transaction-runner.js';
export type { ReadStatement, ReadThenWrite, WriteStatement, WrittenAndRead } from './transaction-runner.js';
export { hydrateRow, selectColumns } from './hydrate.js';
export { autoIncrementIdColumn, dateTime3, jsonColumn } from './column-types.js';
export { jsonText, wellFormed } from './well-formed.js';
export { deriveInFlightKey, inFlightJson, inFlightText, sealJson, sealText } from './in-flight-seal.js';
export { useBinaryCollation } from './binary-identifiers.js';
export { DEFAULT_INSTANCE_OPTIONS, InstanceRegistry } from './instances/instance-registry.js';
export type { InstanceOptions } from './instances/instance-registry.js';
export { InstancesModule } from './instances/instances.module.js';

/** The database lib's own migrations. */
export const DATABASE_MIGRATIONS = [CreateGatewayInstances1764479900000];
