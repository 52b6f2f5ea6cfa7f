import { Injectable, Logger } from '@nestjs/common';

/** A parked call whose approval was decided (approved and run, denied, or expired). */
export interface ApprovalDecision {
  readonly tenantId: string;
  readonly approvalId: string;
  readonly callId: string;
}

/** Carries decisions to the other gateways (Redis pub/sub); none on a single gateway. */
export interface DecisionRelay {
  announce(decision: ApprovalDecision): void;
}

/**
 * Decisions, for whatever waits on the call in this process (an agent run parked on it, an MCP
 * `tasks/result`), so it goes on at once instead of at its next poll: those taken here
 * (`publish`, which also hands them to the relay for the other gateways) and those another gateway
 * took (`deliver`, by the relay, after checking them against the database). Only a nudge: without a
 * relay, or when a message is lost, subscribers keep polling the database as their floor.
 * Subscribers must not throw or block.
 */
@Injectable()
export class ApprovalDecisions {
  private readonly logger = new Logger(ApprovalDecisions.name);
  private readonly subscribers = new Set<(decision: ApprovalDecision) => void>();
  private relay?: DecisionRelay;

  /** Calls `fn` on every decision until the returned function is called. */
  subscribe(fn: (decision: ApprovalDecision) => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  /** Sends this gateway's decisions on to the other gateways too. */
  relayTo(relay: DecisionRelay | undefined): void {
    this.relay = relay;
  }

  /** A decision taken on this gateway: its subscribers, then the other gateways. */
  publish(decision: ApprovalDecision): void {
    this.deliver(decision);
    this.relay?.announce(decision);
  }

  /** A decision to tell this gateway's subscribers only (one that came from another gateway). */
  deliver(decision: ApprovalDecision): void {
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
