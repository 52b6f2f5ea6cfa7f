import type { AdminEvent } from '@toolgate/audit';
import { dataSourceOptions, TransactionRunner } from '@toolgate/database';
import { DataSource } from 'typeorm';
import { ApprovalRepository } from '../approvals/approval.repository.js';
import { CallRecordRepository } from '../calls/call-record.repository.js';
import { ApprovalDecisionEntity } from '../entities/approval-decision.entity.js';
import { ApprovalGrantEntity } from '../entities/approval-grant.entity.js';
import { ApprovalEntity } from '../entities/approval.entity.js';
import { IdempotencyRecordEntity } from '../entities/idempotency-record.entity.js';
import { ToolCallEntity } from '../entities/tool-call.entity.js';
import { APPROVALS_MIGRATIONS } from '../migrations/index.js';

/** The approvals tables in an in-memory SQLite database, migrated, with the lib's repositories on top. */
export interface ApprovalsDatabase {
  readonly dataSource: DataSource;
  readonly transactions: TransactionRunner;
  readonly calls: CallRecordRepository;
  readonly approvals: ApprovalRepository;
  close(): Promise<void>;
}

export async function approvalsDatabase(): Promise<ApprovalsDatabase> {
  const dataSource = new DataSource({
    ...dataSourceOptions({ kind: 'sqlite', path: ':memory:' }),
    entities: [
      ToolCallEntity,
      ApprovalEntity,
      ApprovalDecisionEntity,
      ApprovalGrantEntity,
      IdempotencyRecordEntity,
    ],
    migrations: APPROVALS_MIGRATIONS,
  });
  await dataSource.initialize();
  await dataSource.runMigrations();
  const transactions = new TransactionRunner(dataSource);
  const calls = new CallRecordRepository(dataSource, transactions);
  return {
    dataSource,
    transactions,
    calls,
    approvals: new ApprovalRepository(dataSource, transactions, calls),
    close: () => dataSource.destroy(),
  };
}

/** The audit trail as the approvals lib uses it: events recorded inside the caller's transaction. */
export class RecordedAuditEvents {
  readonly events: AdminEvent[] = [];

  async recordIn(_em: unknown, events: readonly AdminEvent[]): Promise<void> {
    this.events.push(...events);
  }
}
