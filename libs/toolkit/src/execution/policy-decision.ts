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
const FINDINGS = Symbol('policy.guardrails');

/** What a content guardrail found in a call (ADR 045): where, what kinds (never the values), what it did. */
export interface GuardrailFinding {
  readonly side: 'input' | 'output';
  /** `pii:cn_id`, `secret:private_key`, `injection:ignore_instructions`, … */
  readonly found: readonly string[];
  readonly action: 'mask' | 'block' | 'require_approval';
}

/** Notes what a guardrail found, for the approval gate and the call's audit events. */
export function noteGuardrailFinding(call: ToolCall, finding: GuardrailFinding): void {
  const before = (call.state.get(FINDINGS) as GuardrailFinding[] | undefined) ?? [];
  // A streamed result is checked per snapshot: the same finding is noted once.
  const same = (f: GuardrailFinding) =>
    f.side === finding.side && f.action === finding.action && f.found.join() === finding.found.join();
  if (!before.some(same)) call.state.set(FINDINGS, [...before, finding]);
}

/** What the guardrails found in `call` so far. */
export function guardrailFindingsOf(call: ToolCall): readonly GuardrailFinding[] {
  // Only calls with guardrails are looked at: the common call never makes its state map.
  if (!call.tool.guardrails) return [];
  return (call.state.get(FINDINGS) as GuardrailFinding[] | undefined) ?? [];
}

/** Notes the rule that decided `call`. */
export function notePolicyDecision(call: ToolCall, decision: PolicyDecision): void {
  call.state.set(DECISION, decision);
}

/** The rule that decided `call`, if a rule did. */
export function policyDecisionOf(call: ToolCall): PolicyDecision | undefined {
  return call.state.get(DECISION) as PolicyDecision | undefined;
}

/** What a call no rule decided and no guardrail flagged adds to its events: nothing. */
const NO_DETAILS: Readonly<Record<never, never>> = Object.freeze({});

/**
 * The decision as audit details show it: `{ rule: { id, bindingVersion, then, failed?, mask?,
 * limit?, approverGroup? } }` (the masked paths, never the values).
 */
export function policyDecisionDetails(call: ToolCall): {
  rule?: Record<string, unknown>;
  guardrails?: readonly GuardrailFinding[];
} {
  const findings = guardrailFindingsOf(call);
  // Only calls with rules have a decision to read (no state map made otherwise).
  const d = call.tool.rules?.length ? policyDecisionOf(call) : undefined;
  if (!d) return findings.length ? { guardrails: findings } : NO_DETAILS;
  const rule = {
    id: d.ruleId,
    bindingVersion: d.bindingVersion,
    then: d.then,
    ...(d.failed ? { failed: true } : {}),
    ...(d.mask ? { mask: d.mask } : {}),
    ...(d.limit ? { limit: d.limit } : {}),
    ...(d.approverGroup ? { approverGroup: d.approverGroup } : {}),
  };
  return findings.length ? { rule, guardrails: findings } : { rule };
}
