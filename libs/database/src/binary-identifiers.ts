import type { QueryRunner } from 'typeorm';
import { isMysql } from './sql-dialect.js';

/**
 * Makes identifier columns compare byte for byte on MySQL/MariaDB, whose default `_ci` collations
 * take `IdemCase-ABC` and `idemcase-abc` for one key (and ignore trailing spaces). Ids, idempotency
 * keys and session ids are opaque: equal means the same bytes, as on SQLite. A no-op on SQLite.
 */
export async function useBinaryCollation(
  runner: QueryRunner,
  table: string,
  columns: readonly string[],
): Promise<void> {
  if (!isMysql(runner.connection)) return;
  const rows = (await runner.query(
    `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable
       FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME IN (${columns.map(() => '?').join(',')})`,
    [table, ...columns],
  )) as { name: string; type: string; nullable: string }[];
  if (rows.length !== columns.length) {
    const missing = columns.filter((c) => !rows.some((r) => r.name === c));
    throw new Error(`${table}: no column ${missing.join(', ')}`);
  }
  const modify = rows.map(
    (r) =>
      `MODIFY \`${r.name}\` ${r.type} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin ${r.nullable === 'YES' ? 'NULL' : 'NOT NULL'}`,
  );
  await runner.query(`ALTER TABLE \`${table}\` ${modify.join(', ')}`);
}
