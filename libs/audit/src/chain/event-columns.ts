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

// One row's values at a time, reused: `eventRowSql` runs for every event written on MySQL.
const scratch: unknown[] = [];

/**
 * The values of `eventRow` as one MySQL `VALUES` tuple, `(v1,v2,…)`, each escaped as mysql2
 * escapes a parameter (`mysqlLiteral`).
 */
export function eventRowSql(draft: AuditEventDraft, place: ChainPlace): string {
  const fromDraft = draft as Readonly<Record<string, unknown>>;
  const fromPlace = place as Readonly<Record<string, unknown>>;
  scratch.length = 0;
  for (const w of WRITERS) w.write((w.fromDraft ? fromDraft : fromPlace)[w.name], scratch);
  let sql = '(';
  for (let i = 0; i < scratch.length; i++) sql += (i ? ',' : '') + mysqlLiteral(scratch[i]);
  scratch.length = 0;
  return `${sql})`;
}
