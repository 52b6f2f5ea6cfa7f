import { Injectable } from '@nestjs/common';
import {
  HookOrder,
  policyDecisionOf,
  ToolCallHookProvider,
  type ToolCall,
  type ToolCallHook,
  type ToolCallStop,
} from '@toolgate/toolkit';
import { CallQuotas } from './call-quotas.js';

/**
 * A tenant rule's `limit` (issue 26): the policy hook notes the rule that decided; this hook, right
 * after it, counts the call in the rule's bucket and refuses it past `max` with the quotas' own
 * 429 RATE_LIMITED and `Retry-After`. A call a person approved was counted when it asked.
 */
@Injectable()
@ToolCallHookProvider({ order: HookOrder.RULE_LIMIT })
export class RuleLimitHook implements ToolCallHook {
  constructor(private readonly quotas: CallQuotas) {}

  beforeExecute(call: ToolCall): Promise<ToolCallStop | undefined> | undefined {
    // No rules on the tool: no decision to read (the common call pays one property read).
    if (!call.tool.rules?.length || call.request.approval) return undefined;
    const decision = policyDecisionOf(call);
    if (decision?.then !== 'limit' || !decision.limit) return undefined;
    return this.quotas
      .takeRuleLimit({
        tenantId: call.request.tenant?.id ?? '',
        agentType: call.request.agentType ?? '',
        tool: call.tool.contract.name,
        ruleId: decision.ruleId,
        principalId: call.request.principal?.principalId,
        limit: decision.limit,
        locale: call.request.locale,
      })
      .then((envelope) => (envelope ? { envelope } : undefined));
  }
}
