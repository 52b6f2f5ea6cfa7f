import type { AdminEvent } from '@toolgate/audit';
import { callsDatabase, type CallsDatabase } from '@toolgate/calls/testing';
import { ApprovalRepository } from '../approvals/approval.repository.js';
import { ApprovalDecisionEntity } from '../entities/approval-decision.entity.js';
import { ApprovalGrantEntity } from '../entities/approval-grant.entity.js';
import { ApprovalEntity } from '../entities/approval.entity.js';
import { APPROVALS_MIGRATIONS } from '../migrations/index.js';

/** The approvals tables in an in-memory SQLite database, migrated, with the lib's repositories on top. */
export interface ApprovalsDatabase extends CallsDatabase {
  readonly approvals: ApprovalRepository;
}

export async function approvalsDatabase(): Promise<ApprovalsDatabase> {
  const db = await callsDatabase([ApprovalEntity, ApprovalDecisionEntity, ApprovalGrantEntity]);
  // The tables come with the calls lib's migrations (before ADR 031); the lib's own go on top.
  const runner = db.dataSource.createQueryRunner();
  try {
    for (const Migration of APPROVALS_MIGRATIONS) await new Migration().up(runner);
  } finally {
    await runner.release();
  }
  return { ...db, approvals: new ApprovalRepository(db.dataSource, db.transactions, db.calls) };
}

/** The audit trail as the approvals lib uses it: events recorded inside the caller's transaction. */
export class RecordedAuditEvents {
  readonly events: AdminEvent[] = [];

  async recordIn(_em: unknown, events: readonly AdminEvent[]): Promise<void> {
    this.events.push(...events);
  }

  /** A decision's read of the chain head (the double keeps no chain: a read that finds a row). */
  eventRead(): { sql: string; params: unknown[] } {
    return { sql: 'SELECT 1 AS head', params: [] };
  }

  /** A decision's event: recorded once its transaction commits. */
  async eventWrites(events: readonly AdminEvent[]): Promise<{ writes: never[]; committed: () => void }> {
    return { writes: [], committed: () => this.events.push(...events) };
  }
}
