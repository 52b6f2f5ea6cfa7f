import {
  AUDIT_FIELD_ENTRIES,
  type AuditEventDraft,
  type FieldsWhere,
  type FieldValues,
} from '../audit-fields.js';
import { CODECS } from '../field-codecs.js';

/** The fields an INSERT writes: all but the generated id, in the table's order. */
const INSERTED = AUDIT_FIELD_ENTRIES.filter(([, f]) => !f.generated);

/** The columns of an `audit_events` INSERT, in the order `eventRow` gives their values. */
export const EVENT_COLUMNS: readonly string[] = INSERTED.flatMap(([, f]) => f.columns);

/** What the chain adds to a draft when it appends it: its place, hashes and dedupe key. */
export type ChainPlace = FieldValues<
  Exclude<FieldsWhere<{ part: 'chain' | 'row' }>, FieldsWhere<{ generated: true }>>
>;

/** The values of one row of an INSERT into `audit_events`, matching `EVENT_COLUMNS` (both databases). */
export function eventRow(draft: AuditEventDraft, place: ChainPlace): unknown[] {
  const values: Readonly<Record<string, unknown>> = { ...draft, ...place };
  const row: unknown[] = [];
  for (const [name, f] of INSERTED) CODECS[f.codec].write(values[name], row);
  return row;
}
