import {
  AUDIT_FIELD_ENTRIES,
  type AuditEventDraft,
  type FieldsWhere,
  type FieldValues,
} from '../audit-fields.js';
import { mysqlLiteral } from '@toolgate/database';
import { CODECS } from '../field-codecs.js';

/** The fields an INSERT writes: all but the generated id, in the table's order. */
const INSERTED = AUDIT_FIELD_ENTRIES.filter(([, f]) => !f.generated);

/** The columns of an `audit_events` INSERT, in the order `eventRow` gives their values. */
export const EVENT_COLUMNS: readonly string[] = INSERTED.flatMap(([, f]) => f.columns);

/** What the chain adds to a draft when it appends it: its place, hashes and dedupe key. */
export type ChainPlace = FieldValues<
  Exclude<FieldsWhere<{ part: 'chain' | 'row' }>, FieldsWhere<{ generated: true }>>
>;

// Resolved once: this runs for every event written (merging draft and place into one object
// first would cost more than the rest of the row).
const WRITERS = INSERTED.map(([name, f]) => ({
  name,
  fromDraft: f.part === 'draft',
  write: CODECS[f.codec].write,
}));

/** The values of one row of an INSERT into `audit_events`, matching `EVENT_COLUMNS` (both databases). */
export function eventRow(draft: AuditEventDraft, place: ChainPlace): unknown[] {
  const fromDraft = draft as Readonly<Record<string, unknown>>;
  const fromPlace = place as Readonly<Record<string, unknown>>;
  const row: unknown[] = [];
  for (const w of WRITERS) w.write((w.fromDraft ? fromDraft : fromPlace)[w.name], row);
  return row;
}

/** Per column of `EVENT_COLUMNS`: whether it may hold NULL (then it defaults to NULL). */
const NULLABLE = INSERTED.flatMap(([, f]) => f.columns.map(() => f.nullable));

/**
 * A MySQL INSERT of rows given by `eventRow`, their values written in place, each escaped as mysql2
 * escapes a parameter (`mysqlLiteral`). Nullable columns that no row sets are left out (they
 * default to NULL): a third of a typical row, sent and parsed for nothing.
 */
export function insertEventsSql(rows: readonly (readonly unknown[])[]): string {
  const keep = NULLABLE.map((nullable) => !nullable);
  for (const row of rows)
    for (let c = 0; c < row.length; c++)
      if (!keep[c] && row[c] !== null && row[c] !== undefined) keep[c] = true;
  const columns = EVENT_COLUMNS.filter((_, c) => keep[c]);
  let sql = `INSERT INTO audit_events (${columns.join(',')}) VALUES `;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    sql += r ? ',(' : '(';
    let first = true;
    for (let c = 0; c < row.length; c++) {
      if (!keep[c]) continue;
      sql += first ? mysqlLiteral(row[c]) : `,${mysqlLiteral(row[c])}`;
      first = false;
    }
    sql += ')';
  }
  return sql;
}
