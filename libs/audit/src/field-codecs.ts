import { fromSqlDateTime, jsonText, toSqlDateTime } from '@toolgate/database';
import type { AuditActor } from './audit-event.js';
import type { CodecName } from './audit-fields.js';

/** How one kind of field goes into its column(s) and comes back, and how readers see it. */
interface Codec {
  /** Appends the value's column values to `row`, one per column. */
  write(value: unknown, row: unknown[]): void;
  /** The value from a row as TypeORM hands it over, its columns under `properties`. */
  read(row: Readonly<Record<string, unknown>>, properties: readonly string[]): unknown;
  /** The value as the API view shows it. */
  show(value: unknown): unknown;
  /** The value as CSV cells, one per column (the actor: its type and id). */
  cells(value: unknown): unknown[];
}

const asIs = (v: unknown) => v;
const oneCell = (v: unknown) => [v];
const first = (row: Readonly<Record<string, unknown>>, properties: readonly string[]) => row[properties[0]!];

export const CODECS: Readonly<Record<CodecName, Codec>> = {
  text: { write: (v, row) => row.push(v), read: first, show: asIs, cells: oneCell },
  // INT columns come back as numbers, BIGINT ones as text on MariaDB.
  number: {
    write: (v, row) => row.push(v),
    read: (row, p) => {
      const v = first(row, p);
      return v === null || v === undefined ? null : Number(v);
    },
    show: asIs,
    cells: oneCell,
  },
  // A BIGINT id is kept as its decimal text: it may exceed 2^53.
  bigint: {
    write: (v, row) => row.push(v),
    read: (row, p) => String(first(row, p)),
    show: asIs,
    cells: oneCell,
  },
  json: {
    write: (v, row) => row.push(jsonText(v)),
    read: (row, p) => first(row, p) ?? null,
    show: asIs,
    cells: oneCell,
  },
  // Millisecond precision in UTC, what DATETIME(3) keeps, so a read-back event hashes the same.
  date: {
    write: (v, row) => row.push(toSqlDateTime(v as Date)),
    read: (row, p) => fromSqlDateTime(first(row, p)),
    show: (v) => (v as Date).toISOString(),
    cells: (v) => [(v as Date).toISOString()],
  },
  actor: {
    write: (v, row) => row.push((v as AuditActor).type, (v as AuditActor).id),
    read: (row, [type, id]) => ({ type: row[type!], id: row[id!] }),
    show: asIs,
    cells: (v) => [(v as AuditActor).type, (v as AuditActor).id],
  },
};

/** The entity property of a column: the column name in camelCase. */
export const propertyOf = (column: string): string =>
  column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
