import type { DataSource } from 'typeorm';
import { isMysql } from './sql-dialect.js';

/** Names of the two triggers that guard one table. */
const triggersOf = (table: string) => [`${table}_no_update`, `${table}_no_delete`] as const;

const REFUSAL = 'append-only (compliance profile): rows of this table are never changed or removed';

/**
 * Makes tables append-only in the database itself: triggers refuse every UPDATE and DELETE, by any
 * account, the gateway's and a DBA's alike (等保 2.0 8.1.4.3 c). Idempotent.
 */
export async function guardAppendOnly(dataSource: DataSource, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    const [noUpdate, noDelete] = triggersOf(table);
    if (isMysql(dataSource)) {
      for (const [name, action] of [
        [noUpdate, 'UPDATE'],
        [noDelete, 'DELETE'],
      ] as const)
        await dataSource.query(
          `CREATE TRIGGER IF NOT EXISTS \`${name}\` BEFORE ${action} ON \`${table}\` FOR EACH ROW ` +
            `SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = '${table} is ${REFUSAL}'`,
        );
    } else {
      for (const [name, action] of [
        [noUpdate, 'UPDATE'],
        [noDelete, 'DELETE'],
      ] as const)
        await dataSource.query(
          `CREATE TRIGGER IF NOT EXISTS "${name}" BEFORE ${action} ON "${table}" ` +
            `BEGIN SELECT RAISE(ABORT, '${table} is ${REFUSAL}'); END`,
        );
    }
  }
}

/** The guarded tables among `tables` (those whose triggers exist). */
export async function guardedTables(dataSource: DataSource, tables: readonly string[]): Promise<string[]> {
  const names = tables.flatMap((t) => triggersOf(t));
  if (names.length === 0) return [];
  const marks = names.map(() => '?').join(', ');
  const rows = (await dataSource.query(
    isMysql(dataSource)
      ? `SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME IN (${marks})`
      : `SELECT name FROM sqlite_master WHERE type = 'trigger' AND name IN (${marks})`,
    names,
  )) as { name: string }[];
  const present = new Set(rows.map((r) => r.name));
  return tables.filter((t) => triggersOf(t).some((n) => present.has(n)));
}

/** Drops the guard (a migration may rewrite rows; the guard goes back on right after). */
export async function liftAppendOnly(dataSource: DataSource, tables: readonly string[]): Promise<void> {
  const quote = isMysql(dataSource) ? '`' : '"';
  for (const name of tables.flatMap((t) => triggersOf(t)))
    await dataSource.query(`DROP TRIGGER IF EXISTS ${quote}${name}${quote}`);
}
