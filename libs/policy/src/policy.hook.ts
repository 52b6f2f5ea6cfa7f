import { Injectable, Logger } from '@nestjs/common';
import { AuditTrail, PLATFORM_TENANT, TenantRedaction } from '@toolgate/audit';
import {
  ErrorCode,
  errorEnvelope,
  HookOrder,
  notePolicyDecision,
  replaceCallInput,
  rewriteCallOutput,
  ToolCallHookProvider,
  type PolicyDecision,
  type ToolCall,
  type ToolCallHook,
  type ToolCallStop,
} from '@toolgate/toolkit';
import { policyDeniedEvent } from './policy-denied-event.js';
import { outcomeOf, reasonOf, type RuleMatch } from './rule-decision.js';
import { maskInput, outputMasker, unfitMask } from './rule-mask.js';
import { ToolPolicy } from './tool-policy.js';

/**
 * The tenant's rules in the call pipeline (issue 26): after quotas, before the approval gate. The
 * first matching rule decides: `deny` (or a rule that cannot be evaluated) refuses the call with
 * POLICY_DENIED and the rule's reason, recorded as an `access_denied` event naming the rule;
 * `require_approval` is noted for the approval gate, which parks the call; `limit` is noted for the
 * quotas' rule-limit hook, which counts it in the rule's bucket; `mask` redacts the named input
 * fields here (the tool, the gate and the trail see the masked input) and the named result fields
 * when the tool returns; `allow` lets it go on (the tool's own approval still applies). A call a
 * person approved is not decided again; only a mask on its result is applied (re-evaluated on the
 * parked input, which was masked already).
 */
@Injectable()
@ToolCallHookProvider({ order: HookOrder.POLICY })
export class PolicyHook implements ToolCallHook {
  private readonly logger = new Logger('Rules');

  constructor(
    private readonly policy: ToolPolicy,
    private readonly trail: AuditTrail,
    private readonly redaction: TenantRedaction,
  ) {}

  // Synchronous: a tool without rules, the common case, pays one property read.
  beforeExecute(call: ToolCall): Promise<ToolCallStop | undefined> | ToolCallStop | undefined {
    if (!call.tool.rules?.length) return undefined;
    const match = this.policy.decideCall(call);
    if (!match) return undefined;
    const then = outcomeOf(match);
    if (call.request.approval) {
      return then === 'mask' && match.rule.mask?.output?.length ? this.mask(call, match, false) : undefined;
    }
    notePolicyDecision(call, decisionOf(call, match));
    if (then === 'deny') return this.refuse(call, match);
    if (then === 'mask') return this.mask(call, match, true);
    return undefined;
  }

  /** Applies a mask rule with the tenant's redactor: the input now, the result when it comes. */
  private async mask(call: ToolCall, match: RuleMatch, input: boolean): Promise<ToolCallStop | undefined> {
    const mask = match.rule.mask!;
    const redactor = await this.redaction.redactorFor(call.request.tenant?.id ?? PLATFORM_TENANT);
    if (input && mask.input?.length) {
      const masked = maskInput(redactor, call.input, mask, call.tool.contract.input);
      if (!masked.ok) return this.refuse(call, unfitMask(match, masked.issues));
      replaceCallInput(call, masked.value);
    }
    const rewrite = outputMasker(redactor, mask);
    if (rewrite) rewriteCallOutput(call, rewrite);
    return undefined;
  }

  private refuse(call: ToolCall, match: RuleMatch): ToolCallStop {
    const { locale } = call.request;
    const ruleId = match.rule.id;
    const reason = reasonOf(match, locale);
    if (match.failed)
      this.logger.warn(`rule "${ruleId}" on ${call.tool.contract.name} failed: ${match.error}`);
    const rule = {
      id: ruleId,
      bindingVersion: call.tool.bindingVersion,
      then: match.rule.then,
      failed: match.failed,
    };
    this.trail.recordEventually([policyDeniedEvent(call, { rule, reason: reasonOf(match, 'en') })]);
    const envelope = errorEnvelope(
      ErrorCode.POLICY_DENIED,
      locale,
      { rule: ruleId, tool: call.tool.contract.name, reason },
      { rule, reason },
    );
    return { envelope };
  }
}

/** What the hooks after this one (approval gate, rule limits, audit) read of the deciding rule. */
function decisionOf(call: ToolCall, match: RuleMatch): PolicyDecision {
  const then = outcomeOf(match);
  const r = match.rule;
  return {
    ruleId: r.id,
    bindingVersion: call.tool.bindingVersion,
    then,
    failed: match.failed,
    ...(then === 'require_approval'
      ? {
          approvers: r.approvers ?? 1,
          ...(r.expiresInMs ? { expiresInMs: r.expiresInMs } : {}),
          ...(r.approverGroup ? { approverGroup: r.approverGroup } : {}),
        }
      : {}),
    ...(then === 'mask' && r.mask ? { mask: r.mask } : {}),
    ...(then === 'limit' && r.limit ? { limit: r.limit } : {}),
  };
}
