import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  hydrateRow,
  selectColumns,
  toSqlDateTime,
  TransactionRunner,
  type ReadStatement,
  type ReadThenWrite,
  type WriteStatement,
} from '@toolgate/database';
import { In, LessThan, MoreThan, type DataSource, type EntityManager } from 'typeorm';
import { ApprovalDecisionEntity } from '../entities/approval-decision.entity.js';
import { ApprovalEntity, type ApprovalStatus } from '../entities/approval.entity.js';
import { ApprovalGrantEntity } from '../entities/approval-grant.entity.js';
import { CallRecords, type NewCallRecord } from '@toolgate/calls';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';

/** An approval that does not exist and one the caller may not see answer alike. */
export const approvalNotFound = (approvalId: string): ToolgateError =>
  new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `approval ${approvalId}` } });

/** Who a `once` grant belongs to: one principal in one session of one tenant. */
export interface GrantHolder {
  readonly tenantId: string;
  readonly principalId: string;
  readonly sessionId: string;
}

/** Approvals, their decisions and `once` grants; parking writes the call record through its owner. */
@Injectable()
export class ApprovalRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly calls: CallRecords,
  ) {}

  /** Parks a call: its record and its approval, with whatever `within` adds (the audit event). */
  async park(
    call: NewCallRecord,
    approval: ApprovalEntity,
    within: (em: EntityManager) => Promise<void>,
  ): Promise<void> {
    await this.transactions.run(async (em) => {
      await this.calls.park(em, call);
      await em.insert(ApprovalEntity, approval);
      await within(em);
    });
  }

  find(id: string): Promise<ApprovalEntity | null> {
    return this.dataSource.getRepository(ApprovalEntity).findOne({ where: { id } });
  }

  list(
    tenantId: string | null,
    status: ApprovalStatus | undefined,
    limit: number,
  ): Promise<ApprovalEntity[]> {
    return this.dataSource.getRepository(ApprovalEntity).find({
      where: { ...(tenantId ? { tenantId } : {}), ...(status ? { status } : {}) },
      order: { createdAt: 'DESC' },
      take: limit,
    });
  }

  /** Approvals of every tenant decided (or expired) after `since`, oldest decision first. */
  decidedSince(since: Date, limit: number): Promise<ApprovalEntity[]> {
    return this.dataSource
      .getRepository(ApprovalEntity)
      .find({ where: { decidedAt: MoreThan(since) }, order: { decidedAt: 'ASC' }, take: limit });
  }

  countPending(tenantId: string | null): Promise<number> {
    return this.dataSource
      .getRepository(ApprovalEntity)
      .count({ where: { ...(tenantId ? { tenantId } : {}), status: 'pending' } });
  }

  decisionsOf(approvalIds: string[]): Promise<ApprovalDecisionEntity[]> {
    if (!approvalIds.length) return Promise.resolve([]);
    return this.dataSource
      .getRepository(ApprovalDecisionEntity)
      .find({ where: { approvalId: In(approvalIds) }, order: { decidedAt: 'ASC' } });
  }

  /** Pending approvals past their expiry. */
  expiredPending(now: Date, limit = 50): Promise<ApprovalEntity[]> {
    return this.dataSource
      .getRepository(ApprovalEntity)
      .find({ where: { status: 'pending', expiresAt: LessThan(now) }, take: limit });
  }

  /**
   * True when this principal holds a live `once` grant for the tool and key in this session: a
   * grant is never shared with another key that happens to send the same session id.
   */
  async hasGrant(holder: GrantHolder, tool: string, grantKey: string, now: Date): Promise<boolean> {
    const n = await this.dataSource.getRepository(ApprovalGrantEntity).count({
      where: { ...holder, tool, grantKey, expiresAt: MoreThan(now) },
    });
    return n > 0;
  }

  /** Leaves the `once` grant of an approval (replacing an older one for the same holder and key). */
  async grant(em: EntityManager, holder: GrantHolder, approval: ApprovalEntity): Promise<void> {
    const key = { ...holder, tool: approval.tool, grantKey: approval.grantKey };
    await em.delete(ApprovalGrantEntity, key);
    await em.insert(
      ApprovalGrantEntity,
      Object.assign(new ApprovalGrantEntity(), {
        ...key,
        approvalId: approval.id,
        expiresAt: approval.expiresAt,
      }),
    );
  }

  /**
   * A decision's transaction as reads, then writes (`TransactionRunner.readThenWrite`: two round
   * trips on one MySQL server). `reads` come after the approval (locked) and its decisions, whose
   * rows `work` gets first.
   */
  decideInBatches<T>(
    approvalId: string,
    reads: (dialect: 'mysql' | 'sqlite') => readonly ReadStatement[],
    work: (
      approval: ApprovalEntity | null,
      decisions: ApprovalDecisionEntity[],
      rows: Record<string, unknown>[][],
      dialect: 'mysql' | 'sqlite',
    ) => Promise<ReadThenWrite<T>>,
  ): Promise<T> {
    const approvalColumns = selectColumns(this.dataSource, ApprovalEntity);
    const decisionColumns = selectColumns(this.dataSource, ApprovalDecisionEntity);
    return this.transactions.readThenWrite(
      (dialect) => [
        {
          sql: `SELECT ${approvalColumns} FROM approvals WHERE id = ?${dialect === 'mysql' ? ' FOR UPDATE' : ''}`,
          params: [approvalId],
        },
        {
          sql: `SELECT ${decisionColumns} FROM approval_decisions WHERE approval_id = ? ORDER BY decided_at, id`,
          params: [approvalId],
        },
        ...reads(dialect),
      ],
      (rows, dialect) => {
        const [approvalRows, decisionRows, ...rest] = rows;
        const approval = approvalRows![0]
          ? hydrateRow(this.dataSource, ApprovalEntity, approvalRows![0])
          : null;
        const decisions = decisionRows!.map((r) => hydrateRow(this.dataSource, ApprovalDecisionEntity, r));
        return work(approval, decisions, rest, dialect);
      },
    );
  }

  /** An approval that expired undecided: its status, if still pending. */
  expiryWrite(approvalId: string, now: Date): WriteStatement {
    return {
      sql: `UPDATE approvals SET status = 'expired', decided_at = ? WHERE id = ? AND status = 'pending'`,
      params: [toSqlDateTime(now), approvalId],
    };
  }

  /** The `once` grant of an approval (replacing an older one for the same holder and key). */
  grantWrites(holder: GrantHolder, approval: ApprovalEntity): WriteStatement[] {
    const key = [holder.tenantId, holder.principalId, holder.sessionId, approval.tool, approval.grantKey];
    return [
      {
        sql: 'DELETE FROM approval_grants WHERE tenant_id = ? AND principal_id = ? AND session_id = ? AND tool = ? AND grant_key = ?',
        params: key,
      },
      {
        sql: 'INSERT INTO approval_grants (tenant_id, principal_id, session_id, tool, grant_key, approval_id, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        params: [...key, approval.id, toSqlDateTime(approval.expiresAt)],
      },
    ];
  }

  /**
   * Writes a decision, the approval's new status (when it is settled) and the call's move that
   * goes with it, in the caller's transaction and one round trip on MySQL.
   */
  async recordDecision(
    em: EntityManager,
    decision: ApprovalDecisionEntity,
    settled: { readonly status: ApprovalStatus; readonly decidedAt: Date } | null,
    callMove: WriteStatement | null,
  ): Promise<void> {
    await this.transactions.writeIn(em, this.decisionWrites(decision, settled, callMove));
  }

  /** The statements of `recordDecision`. */
  decisionWrites(
    decision: ApprovalDecisionEntity,
    settled: { readonly status: ApprovalStatus; readonly decidedAt: Date } | null,
    callMove: WriteStatement | null,
  ): WriteStatement[] {
    const statements: WriteStatement[] = [
      {
        sql: `INSERT INTO approval_decisions (approval_id, approver_id, approver_role, approver_type, approver_name, approver_email, approver_person, decision, comment, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        params: [
          decision.approvalId,
          decision.approverId,
          decision.approverRole,
          decision.approverType,
          decision.approverName,
          decision.approverEmail,
          decision.approverPerson,
          decision.decision,
          decision.comment,
          toSqlDateTime(decision.decidedAt),
        ],
      },
    ];
    if (settled)
      statements.push({
        sql: `UPDATE approvals SET status = ?, decided_at = ? WHERE id = ? AND status = 'pending'`,
        params: [settled.status, toSqlDateTime(settled.decidedAt), decision.approvalId],
      });
    if (callMove) statements.push(callMove);
    return statements;
  }

  /**
   * Records one approver's decision and moves the approval on, in one transaction: `work` runs
   * with the approval locked (its status re-read), and says what to write. An approval that does
   * not exist is NOT_FOUND.
   */
  async decide<T>(
    approvalId: string,
    work: (em: EntityManager, approval: ApprovalEntity, decisions: ApprovalDecisionEntity[]) => Promise<T>,
  ): Promise<T> {
    return this.transactions.run(async (em) => {
      const lock =
        em.connection.options.type === 'mysql' ? { lock: { mode: 'pessimistic_write' as const } } : {};
      const approval = await em.getRepository(ApprovalEntity).findOne({ where: { id: approvalId }, ...lock });
      if (!approval) throw approvalNotFound(approvalId);
      const decisions = await em.getRepository(ApprovalDecisionEntity).find({ where: { approvalId } });
      return work(em, approval, decisions);
    });
  }
}
