import type { RuleLimit, RuleMask, RuleOutcome } from '@toolgate/contract/rules';
import type { ToolCall } from './tool-call.js';

/**
 * What a tenant's rule decided about one call (issue 26), noted on the call by the policy hook so
 * that the hooks after it act on it without importing the policy lib: the approval gate parks a
 * `require_approval` call for `approvers`, and the audit events name the rule.
 */
export interface PolicyDecision {
  readonly ruleId: string;
  readonly bindingVersion: number | null;
  readonly then: RuleOutcome;
  /** The rule could not be evaluated; the call is refused (fail closed). */
  readonly failed: boolean;
  /** require_approval: approvers needed and how long the approval waits (ms; absent: the platform's). */
  readonly approvers?: number;
  readonly expiresInMs?: number;
  /** require_approval: only members of this approver group (tenant `approvals.groups`) may decide. */
  readonly approverGroup?: string;
  /** mask: the fields redacted (the policy hook applies them). */
  readonly mask?: RuleMask;
  /** limit: the bucket the call counts against (the quotas lib's rule-limit hook takes it). */
  readonly limit?: RuleLimit;
}

const DECISION = Symbol('policy.decision');

/** Notes the rule that decided `call`. */
export function notePolicyDecision(call: ToolCall, decision: PolicyDecision): void {
  call.state.set(DECISION, decision);
}

/** The rule that decided `call`, if a rule did. */
export function policyDecisionOf(call: ToolCall): PolicyDecision | undefined {
  return call.state.get(DECISION) as PolicyDecision | undefined;
}

/**
 * The decision as audit details show it: `{ rule: { id, bindingVersion, then, failed?, mask?,
 * limit?, approverGroup? } }` (the masked paths, never the values).
 */
export function policyDecisionDetails(call: ToolCall): { rule?: Record<string, unknown> } {
  const d = policyDecisionOf(call);
  if (!d) return {};
  return {
    rule: {
      id: d.ruleId,
      bindingVersion: d.bindingVersion,
      then: d.then,
      ...(d.failed ? { failed: true } : {}),
      ...(d.mask ? { mask: d.mask } : {}),
      ...(d.limit ? { limit: d.limit } : {}),
      ...(d.approverGroup ? { approverGroup: d.approverGroup } : {}),
    },
  };
}
