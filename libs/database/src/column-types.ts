import type { ColumnOptions, QueryRunner, TableColumnOptions } from 'typeorm';
import { isMysql } from './sql-dialect.js';
import { wellFormedJson } from './well-formed.js';

/**
 * A UTC timestamp kept to the millisecond on both databases: MariaDB `DATETIME(3)` (a plain
 * `DATETIME` drops milliseconds), SQLite text `YYYY-MM-DD HH:MM:SS.sss`.
 */
export const dateTime3 = (options: ColumnOptions = {}): ColumnOptions => ({
  type: 'datetime',
  precision: 3,
  ...options,
});

/**
 * A JSON document: native JSON on MySQL/MariaDB, text on SQLite. Values are made well-formed
 * before any transformer of the column's own (see well-formed.ts).
 */
export const jsonColumn = (options: ColumnOptions = {}): ColumnOptions => ({
  type: 'json',
  ...options,
  transformer: [wellFormedJson, ...[options.transformer ?? []].flat()],
});

/**
 * The auto-increment id column of a migration: BIGINT on MySQL; INTEGER on SQLite, where only an
 * INTEGER PRIMARY KEY may autoincrement (and is 64-bit anyway).
 */
export function autoIncrementIdColumn(runner: QueryRunner, name = 'id'): TableColumnOptions {
  const sqlite = !isMysql(runner.connection);
  return {
    name,
    type: sqlite ? 'integer' : 'bigint',
    isPrimary: true,
    isGenerated: true,
    generationStrategy: 'increment',
  };
}
