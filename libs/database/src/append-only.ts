import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { isMysql } from './sql-dialect.js';

const REFUSAL = 'append-only (compliance profile): rows of this table are never changed or removed';

/**
 * The one way rows of an append-only table may still be removed: retention's purge of archived
 * ranges (ADR 037). A row may be deleted when its `seq` is at most the purge window recorded for
 * its tenant in `windowTable.windowColumn` — and, on MySQL/MariaDB, only by `account` (the purge
 * job's own login, `DATABASE_PURGE_URL`): the runtime account and a DBA are still refused. SQLite
 * has no accounts; there the window alone decides.
 */
export interface PurgeExemption {
  readonly table: string;
  readonly windowTable: string;
  readonly windowColumn: string;
  /** MySQL: the user name of the purge account. Without it, MySQL gets no exemption at all. */
  readonly account?: string;
}

const updateTrigger = (table: string) => `${table}_no_update`;
const deleteTrigger = (table: string) => `${table}_no_delete`;

/** Whether a trigger is one of the guards of `table` (the exempted DELETE guard has a tag after it). */
const isGuardOf = (table: string, name: string) =>
  name === updateTrigger(table) ||
  name === deleteTrigger(table) ||
  name.startsWith(`${deleteTrigger(table)}_`);

/** The exemption that applies to `table` on this database, if any. */
function exemptionFor(dataSource: DataSource, table: string, purge?: PurgeExemption) {
  if (!purge || purge.table !== table) return undefined;
  if (isMysql(dataSource) && !purge.account) return undefined;
  return purge;
}

/** The exempted DELETE guard's name: tagged by what it allows, so a changed account gets a new one. */
function exemptedTriggerName(p: PurgeExemption): string {
  const tag = createHash('sha256')
    .update(`${p.windowTable}.${p.windowColumn}/${p.account ?? ''}`)
    .digest('hex')
    .slice(0, 8);
  return `${deleteTrigger(p.table)}_${tag}`;
}

/** Names are ours (identifiers of the code and the account's user name): quoted, never interpolated raw. */
function sqlString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

async function triggersOn(dataSource: DataSource, table: string): Promise<string[]> {
  const rows = (await dataSource.query(
    isMysql(dataSource)
      ? 'SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = ?'
      : "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?",
    [table],
  )) as { name: string }[];
  return rows.map((r) => r.name).filter((n) => isGuardOf(table, n));
}

/**
 * Makes tables append-only in the database itself: triggers refuse every UPDATE and DELETE, by any
 * account, the gateway's and a DBA's alike (等保 2.0 8.1.4.3 c) — except the DELETEs a purge
 * exemption allows. Idempotent; an exemption that changed replaces the DELETE guard, the new one
 * created before the old one is dropped, so the table is never unguarded.
 */
export async function guardAppendOnly(
  dataSource: DataSource,
  tables: readonly string[],
  purge?: PurgeExemption,
): Promise<void> {
  const mysql = isMysql(dataSource);
  const q = (name: string) => (mysql ? `\`${name}\`` : `"${name}"`);
  const refuse = (table: string) =>
    mysql
      ? `SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = '${table} is ${REFUSAL}'`
      : `SELECT RAISE(ABORT, '${table} is ${REFUSAL}')`;
  for (const table of tables) {
    const create = (name: string, action: 'UPDATE' | 'DELETE', body: string) =>
      dataSource.query(
        `CREATE TRIGGER IF NOT EXISTS ${q(name)} BEFORE ${action} ON ${q(table)} ${mysql ? `FOR EACH ROW ${body}` : body}`,
      );
    await create(updateTrigger(table), 'UPDATE', mysql ? refuse(table) : `BEGIN ${refuse(table)}; END`);
    const exemption = exemptionFor(dataSource, table, purge);
    const wanted = exemption ? exemptedTriggerName(exemption) : deleteTrigger(table);
    if (exemption) {
      const window = `COALESCE((SELECT w.${exemption.windowColumn} FROM ${q(exemption.windowTable)} w WHERE w.tenant_id = OLD.tenant_id), 0)`;
      await create(
        wanted,
        'DELETE',
        mysql
          ? `IF NOT (SUBSTRING_INDEX(USER(), '@', 1) = ${sqlString(exemption.account!)} AND OLD.seq <= ${window}) THEN ${refuse(table)}; END IF`
          : `WHEN NOT (OLD.seq <= ${window}) BEGIN ${refuse(table)}; END`,
      );
    } else {
      await create(wanted, 'DELETE', mysql ? refuse(table) : `BEGIN ${refuse(table)}; END`);
    }
    for (const name of await triggersOn(dataSource, table))
      if (name !== wanted && name !== updateTrigger(table))
        await dataSource.query(`DROP TRIGGER IF EXISTS ${q(name)}`);
  }
}

/** The guarded tables among `tables` (those whose triggers exist). */
export async function guardedTables(dataSource: DataSource, tables: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const table of tables) if ((await triggersOn(dataSource, table)).length) out.push(table);
  return out;
}

/** Drops the guard (a migration may rewrite rows; the guard goes back on right after). */
export async function liftAppendOnly(dataSource: DataSource, tables: readonly string[]): Promise<void> {
  const quote = isMysql(dataSource) ? '`' : '"';
  for (const table of tables)
    for (const name of await triggersOn(dataSource, table))
      await dataSource.query(`DROP TRIGGER IF EXISTS ${quote}${name}${quote}`);
}
