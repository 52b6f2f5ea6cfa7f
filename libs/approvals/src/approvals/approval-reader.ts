import { Injectable } from '@nestjs/common';
import type { ApprovalEntity } from '../entities/approval.entity.js';
import { ApprovalRepository } from './approval.repository.js';

/** An approval as other libs read it (its row, never to be changed). */
export type ApprovalRecord = Readonly<ApprovalEntity>;

/**
 * What other libs and the gateway read of approvals without an actor (notifications, the admin
 * stats): they ask this, never the repository. An approver's reads go through `ApprovalService`.
 */
@Injectable()
export class ApprovalReader {
  constructor(private readonly approvals: ApprovalRepository) {}

  /** The approval of a tenant; null when it does not exist there. */
  async find(tenantId: string, approvalId: string): Promise<ApprovalRecord | null> {
    const a = await this.approvals.find(approvalId);
    return a && a.tenantId === tenantId ? a : null;
  }

  /** Pending approvals of every tenant, newest first. */
  pending(limit: number): Promise<ApprovalRecord[]> {
    return this.approvals.list(null, 'pending', limit);
  }

  /** Approvals of every tenant decided or expired after `since`, oldest first. */
  decidedSince(since: Date, limit: number): Promise<ApprovalRecord[]> {
    return this.approvals.decidedSince(since, limit);
  }

  /** How many approvals wait, in one tenant or (null) in all. */
  countPending(tenantId: string | null): Promise<number> {
    return this.approvals.countPending(tenantId);
  }
}
