import { Injectable, Logger } from '@nestjs/common';
import type { ApprovalDecision } from './approval-decision-listener.js';

/**
 * Decisions taken on this gateway, for any number of in-process subscribers (an MCP `tasks/result`
 * waiting on its call), beside the one `APPROVAL_DECISION_LISTENER` the runs lib provides. Only a
 * nudge: a decision taken on another gateway reaches nobody here, so subscribers keep polling the
 * database as their floor.
 */
@Injectable()
export class ApprovalDecisions {
  private readonly logger = new Logger(ApprovalDecisions.name);
  private readonly subscribers = new Set<(decision: ApprovalDecision) => void>();

  /** Calls `fn` on every decision until the returned function is called. */
  subscribe(fn: (decision: ApprovalDecision) => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  publish(decision: ApprovalDecision): void {
    for (const fn of this.subscribers) {
      try {
        fn(decision);
      } catch (err) {
        // A subscriber's failure must not reach the approver's request.
        this.logger.warn(`decision subscriber failed: ${(err as Error).message}`);
      }
    }
  }
}
