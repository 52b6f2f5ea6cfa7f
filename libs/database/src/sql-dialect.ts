import type { DataSource, EntityManager } from 'typeorm';
import { escape } from 'mysql2';

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

/**
 * True when a transaction was rolled back whole as a deadlock's victim — on Galera also when it lost
 * certification to a transaction of another node (ER_LOCK_DEADLOCK, "WSREP detected
 * deadlock/conflict"; ADR 042).
 */
export function isDeadlock(err: unknown): boolean {
  const e = err as { errno?: number; driverError?: { errno?: number } } | undefined;
  return (e?.driverError?.errno ?? e?.errno) === 1213;
}

/** True for errors a transaction may simply be retried after (deadlock, lock wait timeout). */
export function isRetryableTransactionError(err: unknown): boolean {
  const e = err as { errno?: number; driverError?: { errno?: number } } | undefined;
  const errno = e?.driverError?.errno ?? e?.errno;
  return errno === 1213 || errno === 1205;
}

/**
 * A value as a MySQL literal, escaped exactly as mysql2 escapes a `?` parameter (it formats
 * parameterised queries in the client, with the same function): text quoted with its special
 * characters backslash-escaped, null as NULL, numbers as written. For hot paths that build one
 * large statement, where filling thousands of `?` costs more than writing the values in place.
 * @example mysqlLiteral("it's") // "'it\\'s'"
 */
export function mysqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return `${value}`;
  return escape(value as Parameters<typeof escape>[0]);
}

/** Tries of a single-statement insert that lost to a concurrent one as a deadlock. */
const INSERT_ATTEMPTS = 5;

/**
 * Runs a single-statement insert that a unique key makes "first one wins": true when it inserted,
 * false when the key was taken. Two inserts of one key on two Galera nodes meet at certification,
 * and the loser is rolled back as a deadlock, not a duplicate (ADR 042): it is tried again, and then
 * sees the winner's row as a duplicate (or, if the winner was rolled back too, wins). Not for a
 * statement inside a transaction: the transaction is what is retried then (TransactionRunner).
 */
export async function insertUnlessTaken(insert: () => Promise<unknown>): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await insert();
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      if (!isDeadlock(err) || attempt === INSERT_ATTEMPTS) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
