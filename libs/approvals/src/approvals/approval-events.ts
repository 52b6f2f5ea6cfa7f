import { Injectable, Logger } from '@nestjs/common';

/** An approval that was just stored as pending: a person now has something to decide. */
export interface ApprovalRequested {
  readonly tenantId: string;
  readonly approvalId: string;
  readonly callId: string;
}

/**
 * Approvals created on this gateway, for side effects that may lag (notifications). Published
 * after the approval is committed; only a nudge, like ApprovalDecisions: a subscriber that must
 * not miss one also sweeps the database. Subscribers must not throw or block the parked call.
 */
@Injectable()
export class ApprovalEvents {
  private readonly logger = new Logger(ApprovalEvents.name);
  private readonly subscribers = new Set<(event: ApprovalRequested) => void>();

  /** Calls `fn` on every new approval until the returned function is called. */
  subscribe(fn: (event: ApprovalRequested) => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  requested(event: ApprovalRequested): void {
    for (const fn of this.subscribers) {
      try {
        fn(event);
      } catch (err) {
        // A subscriber's failure must not reach the call that parked.
        this.logger.warn(`approval subscriber failed: ${(err as Error).message}`);
      }
    }
  }
}
