import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * An entity from a raw row of its table (columns by database name), as TypeORM's own reads build
 * it: each value through the driver's hydration (dates, JSON, booleans) and the column's
 * transformer. For rows read by hand-written statements that go in one packet with others.
 */
export function hydrateRow<T extends ObjectLiteral>(
  dataSource: DataSource,
  target: EntityTarget<T>,
  raw: Record<string, unknown>,
): T {
  const metadata = dataSource.getMetadata(target);
  const entity = metadata.create() as T;
  for (const column of metadata.columns) {
    const value = raw[column.databaseName];
    if (value === undefined) continue;
    column.setEntityValue(entity, dataSource.driver.prepareHydratedValue(value, column));
  }
  return entity;
}

/** The column list of an entity's table for a hand-written SELECT (every column, by database name). */
export function selectColumns(dataSource: DataSource, target: EntityTarget<ObjectLiteral>): string {
  const metadata = dataSource.getMetadata(target);
  const quote = (name: string) => dataSource.driver.escape(name);
  return metadata.columns.map((c) => quote(c.databaseName)).join(', ');
}
