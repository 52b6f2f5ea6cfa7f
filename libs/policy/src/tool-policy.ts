import { Injectable } from '@nestjs/common';
import type { CallPrincipal, EffectiveTool, ToolCall } from '@toolgate/toolkit';
import type { RuleFacts } from './rule-compiler.js';
import { RuleBook } from './rule-book.js';
import { deniesEveryCall, firstMatch, type RuleMatch } from './rule-decision.js';
import { callFacts, listingFacts } from './rule-facts.js';

/**
 * The tenants' rules on arguments and content (issue 26), as the faces ask them: which rule decides
 * a call (the pipeline's policy hook, the check endpoint), and which tools a principal's rules
 * refuse whatever the input (hidden from every listing).
 */
@Injectable()
export class ToolPolicy {
  constructor(private readonly book: RuleBook) {}

  /** The rule that decides this call, or null when none matches (or the tool has no rules). */
  decideCall(call: ToolCall): RuleMatch | null {
    const rules = call.tool.rules;
    if (!rules?.length) return null;
    return this.decide(
      call.request.tenant?.id ?? '',
      call.request.agentType ?? '',
      call.tool,
      callFacts(call),
    );
  }

  /** The rule of `tool` (bound to tenant and agent type) that decides on `facts`, or null. */
  decide(tenantId: string, agentType: string, tool: EffectiveTool, facts: RuleFacts): RuleMatch | null {
    const rules = tool.rules;
    if (!rules?.length) return null;
    const source = { tenantId, agentType, bindingVersion: tool.bindingVersion, tool: tool.contract.name };
    return firstMatch(this.book.rulesOf(source, rules), facts);
  }

  /** The tools whose rules refuse every call of `principal` now, by name: no listing shows them. */
  hiddenTools(
    tenantId: string,
    agentType: string,
    tools: Iterable<EffectiveTool>,
    principal: CallPrincipal,
  ): ReadonlySet<string> {
    const hidden = new Set<string>();
    const now = new Date();
    for (const tool of tools) {
      if (!tool.rules?.length) continue;
      const source = { tenantId, agentType, bindingVersion: tool.bindingVersion, tool: tool.contract.name };
      const rules = this.book.rulesOf(source, tool.rules);
      if (deniesEveryCall(rules, listingFacts(principal, agentType, tool, now)))
        hidden.add(tool.contract.name);
    }
    return hidden;
  }
}
