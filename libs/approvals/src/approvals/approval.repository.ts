import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { TransactionRunner } from '@toolgate/database';
import { In, LessThan, MoreThan, type DataSource, type EntityManager } from 'typeorm';
import { ApprovalDecisionEntity } from '../entities/approval-decision.entity.js';
import { ApprovalEntity, type ApprovalStatus } from '../entities/approval.entity.js';
import { ApprovalGrantEntity } from '../entities/approval-grant.entity.js';
import { ToolCallEntity } from '../entities/tool-call.entity.js';

/** Approvals, their decisions, `once` grants, and the call records they drive. */
@Injectable()
export class ApprovalRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Parks a call: its record and its approval, with whatever `within` adds (the audit event). */
  async park(
    call: ToolCallEntity,
    approval: ApprovalEntity,
    within: (em: EntityManager) => Promise<void>,
  ): Promise<void> {
    await this.transactions.run(async (em) => {
      await em.insert(ToolCallEntity, call);
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

  /** True when the session holds a live `once` grant for the tool and key. */
  async hasGrant(
    tenantId: string,
    sessionId: string,
    tool: string,
    grantKey: string,
    now: Date,
  ): Promise<boolean> {
    const n = await this.dataSource
      .getRepository(ApprovalGrantEntity)
      .count({ where: { tenantId, sessionId, tool, grantKey, expiresAt: MoreThan(now) } });
    return n > 0;
  }

  /**
   * Records one approver's decision and moves the approval on, in one transaction: `decided` runs
   * with the approval locked (its status re-read), and says what to write.
   */
  async decide<T>(
    approvalId: string,
    work: (em: EntityManager, approval: ApprovalEntity, decisions: ApprovalDecisionEntity[]) => Promise<T>,
  ): Promise<T> {
    return this.transactions.run(async (em) => {
      const lock =
        em.connection.options.type === 'mysql' ? { lock: { mode: 'pessimistic_write' as const } } : {};
      const approval = await em.getRepository(ApprovalEntity).findOne({ where: { id: approvalId }, ...lock });
      if (!approval) throw new Error(`approval ${approvalId} vanished`);
      const decisions = await em.getRepository(ApprovalDecisionEntity).find({ where: { approvalId } });
      return work(em, approval, decisions);
    });
  }
}
