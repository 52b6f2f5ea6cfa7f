import { Injectable, Logger } from '@nestjs/common';
import { AuditTrail } from '@toolgate/audit';
import {
  ErrorCode,
  errorEnvelope,
  HookOrder,
  notePolicyDecision,
  ToolCallHookProvider,
  type ToolCall,
  type ToolCallHook,
  type ToolCallStop,
} from '@toolgate/toolkit';
import { outcomeOf, reasonOf, type RuleMatch } from './rule-decision.js';
import { ToolPolicy } from './tool-policy.js';

/**
 * The tenant's rules in the call pipeline (issue 26): after quotas, before the approval gate. The
 * first matching rule decides: `deny` (or a rule that cannot be evaluated) refuses the call with
 * POLICY_DENIED and the rule's reason, recorded as an `access_denied` event naming the rule;
 * `require_approval` is noted for the approval gate, which parks the call; `allow` lets it go on
 * (the tool's own approval still applies). A call a person approved is not asked again.
 */
@Injectable()
@ToolCallHookProvider({ order: HookOrder.POLICY })
export class PolicyHook implements ToolCallHook {
  private readonly logger = new Logger('Rules');

  constructor(
    private readonly policy: ToolPolicy,
    private readonly trail: AuditTrail,
  ) {}

  // Synchronous: a tool without rules, the common case, pays one property read.
  beforeExecute(call: ToolCall): ToolCallStop | undefined {
    if (!call.tool.rules?.length || call.request.approval) return undefined;
    const match = this.policy.decideCall(call);
    if (!match) return undefined;
    const then = outcomeOf(match);
    notePolicyDecision(call, {
      ruleId: match.rule.id,
      bindingVersion: call.tool.bindingVersion,
      then,
      failed: match.failed,
      ...(then === 'require_approval'
        ? {
            approvers: match.rule.approvers ?? 1,
            ...(match.rule.expiresInMs ? { expiresInMs: match.rule.expiresInMs } : {}),
          }
        : {}),
    });
    return then === 'deny' ? this.refuse(call, match) : undefined;
  }

  private refuse(call: ToolCall, match: RuleMatch): ToolCallStop {
    const { locale, tenant, principal, agentType } = call.request;
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
    this.trail.recordEventually([
      {
        event: 'access_denied',
        tenantId: tenant?.id ?? null,
        actor: principal
          ? { type: principal.principalType, id: principal.principalId }
          : { type: 'system', id: 'system' },
        callId: call.id,
        tool: call.tool.contract.name,
        implementation: call.tool.implementation.name,
        riskLevel: call.tool.contract.risk.level,
        agentType,
        sessionId: call.ctx.session.id,
        status: 'error',
        code: ErrorCode.POLICY_DENIED,
        input: call.input ?? null,
        sensitivePaths: call.tool.contract.sensitivePaths,
        details: {
          rule,
          reason: reasonOf(match, 'en'),
          ...(call.request.face ? { face: call.request.face } : {}),
        },
      },
    ]);
    const envelope = errorEnvelope(
      ErrorCode.POLICY_DENIED,
      locale,
      { rule: ruleId, tool: call.tool.contract.name, reason },
      { rule, reason },
    );
    return { envelope };
  }
}
