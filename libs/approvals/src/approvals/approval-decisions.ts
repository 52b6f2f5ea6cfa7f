import { Injectable, Logger } from '@nestjs/common';

/** A parked call whose approval was decided (approved and run, denied, or expired). */
export interface ApprovalDecision {
  readonly tenantId: string;
  readonly approvalId: string;
  readonly callId: string;
}

/**
 * Decisions taken on this gateway, for whatever waits on the call in this process (an agent run
 * parked on it, an MCP `tasks/result`), so it goes on at once instead of at its next poll. Only a
 * nudge: a decision taken on another gateway reaches nobody here, so subscribers keep polling the
 * database as their floor. Subscribers must not throw or block.
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
