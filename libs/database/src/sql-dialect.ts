import type { DataSource, EntityManager } from 'typeorm';

/** True when the connection speaks MySQL/MariaDB (row locks, GET_LOCK); false for SQLite. */
export function isMysql(source: DataSource | EntityManager): boolean {
  const options = 'options' in source ? source.options : source.connection.options;
  return options.type === 'mysql' || options.type === 'mariadb';
}

/** True when an error is a unique-key violation on either database. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as
    { code?: string; errno?: number; driverError?: { code?: string; errno?: number } } | undefined;
  const code = e?.driverError?.code ?? e?.code;
  const errno = e?.driverError?.errno ?? e?.errno;
  return (
    code === 'ER_DUP_ENTRY' ||
    errno === 1062 ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE'
  );
}

/** True for errors a transaction may simply be retried after (deadlock, lock wait timeout). */
export function isRetryableTransactionError(err: unknown): boolean {
  const e = err as { errno?: number; driverError?: { errno?: number } } | undefined;
  const errno = e?.driverError?.errno ?? e?.errno;
  return errno === 1213 || errno === 1205;
}
