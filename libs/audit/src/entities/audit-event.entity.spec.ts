import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_FIELD_ENTRIES, type CodecName } from '../audit-fields.js';
import { propertyOf } from '../field-codecs.js';
import { AuditEventEntity } from './audit-event.entity.js';

/** The column types the entity may declare for each codec. */
const COLUMN_TYPES: Record<CodecName, readonly string[]> = {
  text: ['varchar'],
  number: ['int', 'bigint'],
  bigint: ['bigint'],
  json: ['json'],
  date: ['datetime'],
  actor: ['varchar'],
};

// The entity drives the schema and migrations; the field table drives every read and write. This
// keeps them the same set of columns with the same properties, nullability and kind of value.
describe('AuditEventEntity against the field table', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [AuditEventEntity],
    });
    await dataSource.initialize();
  });
  afterAll(() => dataSource.destroy());

  const tableColumns = AUDIT_FIELD_ENTRIES.flatMap(([, f]) => f.columns.map((column) => ({ column, f })));
  const entityColumns = () => dataSource.getMetadata(AuditEventEntity).columns;

  it('has exactly the columns of the table', () => {
    expect(
      entityColumns()
        .map((c) => c.databaseName)
        .sort(),
    ).toEqual(tableColumns.map((c) => c.column).sort());
  });

  it.each(tableColumns.map(({ column, f }) => [column, f] as const))(
    '%s: property, nullability, type and generation agree',
    (column, f) => {
      const c = entityColumns().find((e) => e.databaseName === column)!;
      expect(c.propertyName).toBe(propertyOf(column));
      expect(c.isNullable).toBe(f.nullable);
      expect(COLUMN_TYPES[f.codec]).toContain(String(c.type));
      expect(c.isGenerated).toBe(!!f.generated);
    },
  );
});
