import { AUDIT_FIELD_ENTRIES, AUDIT_FIELDS, type AuditEventRecord, type ValueOf } from '../audit-fields.js';
import type { AuditEventEntity } from '../entities/audit-event.entity.js';
import { CODECS, propertyOf } from '../field-codecs.js';

/** The fields of a stored event with the entity properties of their columns, in the table's order. */
const RECORD_FIELDS = AUDIT_FIELD_ENTRIES.filter(([, f]) => f.part !== 'row').map(
  ([name, f]) => [name, f, f.columns.map(propertyOf)] as const,
);

/** A stored row as the domain sees it (and as its hash was computed). */
export function toRecord(e: AuditEventEntity): AuditEventRecord {
  const row = e as unknown as Readonly<Record<string, unknown>>;
  const record: Record<string, unknown> = {};
  for (const [name, f, properties] of RECORD_FIELDS) record[name] = CODECS[f.codec].read(row, properties);
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
const VIEW_FIELDS = RECORD_FIELDS.filter(([, f]) => f.view !== 'hidden');

/** The public (docs/CONTRACT.md) shape of an event, its keys in the table's order. */
export function toApiEvent(r: AuditEventRecord): ApiAuditEvent {
  const record = r as unknown as Readonly<Record<string, unknown>>;
  const view: Record<string, unknown> = {};
  for (const [name, f] of VIEW_FIELDS) {
    const value = record[name];
    if (f.view !== 'ref') view[name] = CODECS[f.codec].show(value);
    else if (value) view[refName(name)] = { id: value };
  }
  return view as ApiAuditEvent;
}
