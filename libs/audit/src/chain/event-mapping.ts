import {
  AUDIT_FIELD_ENTRIES,
  AUDIT_FIELDS,
  blankOf,
  type AuditEventRecord,
  type ValueOf,
} from '../audit-fields.js';
import type { AuditEventEntity } from '../entities/audit-event.entity.js';
import { CODECS, propertyOf } from '../field-codecs.js';

/** The fields of a stored event in the table's order, resolved once (this runs for every row read). */
const RECORD_FIELDS = AUDIT_FIELD_ENTRIES.filter(([, f]) => f.part !== 'row').map(([name, f]) => ({
  name,
  view: f.view ?? 'value',
  properties: f.columns.map(propertyOf),
  ...CODECS[f.codec],
}));

const BLANK_RECORD = blankOf(RECORD_FIELDS.map((f) => f.name));

/** A stored row as the domain sees it (and as its hash was computed). */
export function toRecord(e: AuditEventEntity): AuditEventRecord {
  const row = e as unknown as Readonly<Record<string, unknown>>;
  const record: Record<string, unknown> = { ...BLANK_RECORD };
  for (const f of RECORD_FIELDS) record[f.name] = f.read(row, f.properties);
  return record as AuditEventRecord;
}

type Fields = typeof AUDIT_FIELDS;
type RecordField = keyof AuditEventRecord;
type ShownField = {
  [K in RecordField]: Fields[K] extends { view: 'hidden' | 'ref' } ? never : K;
}[RecordField];
type RefField = { [K in RecordField]: Fields[K] extends { view: 'ref' } ? K : never }[RecordField];
/** `approverId` → `approver`. */
type RefName<K> = K extends `${infer Name}Id` ? Name : never;

/** The public (docs/CONTRACT.md) shape of an event. */
export type ApiAuditEvent = {
  [K in ShownField]: Fields[K] extends { codec: 'date' } ? string : ValueOf<Fields[K]>;
} & { [K in RefField as RefName<K>]?: { id: string } };

const refName = (field: string) => field.replace(/Id$/, '');
const VIEW_FIELDS = RECORD_FIELDS.filter((f) => f.view !== 'hidden').map((f) => ({
  ...f,
  viewName: f.view === 'ref' ? refName(f.name) : f.name,
}));

/** The public (docs/CONTRACT.md) shape of an event, its keys in the table's order. */
export function toApiEvent(r: AuditEventRecord): ApiAuditEvent {
  const record = r as unknown as Readonly<Record<string, unknown>>;
  const view: Record<string, unknown> = {};
  for (const f of VIEW_FIELDS) {
    const value = record[f.name];
    if (f.view !== 'ref') view[f.name] = f.show(value);
    else if (value) view[f.viewName] = { id: value };
  }
  return view as ApiAuditEvent;
}
