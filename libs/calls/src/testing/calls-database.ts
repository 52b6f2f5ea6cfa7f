import { dataSourceOptions, TransactionRunner } from '@toolgate/database';
import { DataSource, type MixedList } from 'typeorm';
import { IdempotencyRecordEntity } from '../entities/idempotency-record.entity.js';
import { ToolCallEntity } from '../entities/tool-call.entity.js';
import { CALLS_MIGRATIONS } from '../migrations/index.js';
import { CallRecords } from '../records/call-records.js';

/** The calls tables in an in-memory SQLite database, migrated, with the call records on top. */
export interface CallsDatabase {
  readonly dataSource: DataSource;
  readonly transactions: TransactionRunner;
  readonly calls: CallRecords;
  close(): Promise<void>;
}

/**
 * An in-memory database with the calls lib's migrations (which also create the approvals tables,
 * ADR 031); `entities` are the caller's own besides the calls lib's.
 */
export async function callsDatabase(entities: MixedList<Function> = []): Promise<CallsDatabase> {
  const dataSource = new DataSource({
    ...dataSourceOptions({ kind: 'sqlite', path: ':memory:' }),
    entities: [ToolCallEntity, IdempotencyRecordEntity, ...(entities as Function[])],
    migrations: CALLS_MIGRATIONS,
  });
  await dataSource.initialize();
  await dataSource.runMigrations();
  const transactions = new TransactionRunner(dataSource);
  return {
    dataSource,
    transactions,
    calls: new CallRecords(dataSource, transactions),
    close: () => dataSource.destroy(),
  };
}
