/** A parked call whose approval was decided (approved and run, denied, or expired). */
export interface ApprovalDecision {
  readonly tenantId: string;
  readonly approvalId: string;
  readonly callId: string;
}

/**
 * Told when a decision ends an approval on this gateway, so that whatever waits on the call (an
 * agent run parked on it) can go on at once instead of at its next poll. Optional: provided by
 * the runs lib under `APPROVAL_DECISION_LISTENER`. Must not throw or block.
 */
export interface ApprovalDecisionListener {
  approvalDecided(decision: ApprovalDecision): void;
}

export const APPROVAL_DECISION_LISTENER = Symbol('APPROVAL_DECISION_LISTENER');
