import type { ApprovalMode, RiskLevel, ToolRule } from '@toolgate/contract/rules';
import { maskPathProblems } from './mask-paths.js';
import { compileRule, RuleCompileError } from './rule-compiler.js';

/** What the tighten-only check needs of the tool a rule is bound to. */
export interface RuledTool {
  readonly name: string;
  readonly riskLevel: RiskLevel;
  /** The effective approval mode (declared, tightened by the binding). */
  readonly approval: ApprovalMode;
  /** The tool's input JSON Schema, against which a mask rule's input paths are checked. */
  readonly inputSchema?: { readonly [keyword: string]: unknown };
}

/** One problem of a tool's rules: which rule, which field, what is wrong. */
export interface RuleProblem {
  readonly index: number;
  readonly field: 'when' | 'then' | 'approverGroup' | 'mask';
  readonly problem: string;
}

/**
 * Checks a tool's rules when they are saved (admin API, tenant file): each compiles under the
 * limits of ADR 041, and none loosens what the tool or the platform declares: `allow` cannot rule
 * away an approval the tool requires (an L3 tool always asks). Approver counts and expiries cannot
 * loosen either: the gate takes the larger count and the shorter expiry (by construction, not here).
 */
export function ruleProblems(
  rules: readonly ToolRule[],
  tool: RuledTool,
  /** The tenant's approver groups (`approvals.groups`); a rule naming another group is refused. */
  approverGroups: ReadonlySet<string> = new Set(),
): RuleProblem[] {
  const problems: RuleProblem[] = [];
  rules.forEach((rule, index) => {
    try {
      compileRule(rule);
    } catch (err) {
      const why = err instanceof RuleCompileError ? err.message : String(err);
      problems.push({ index, field: 'when', problem: `tool "${tool.name}", rule "${rule.id}": ${why}` });
    }
    if (rule.approverGroup && !approverGroups.has(rule.approverGroup))
      problems.push({
        index,
        field: 'approverGroup',
        problem: `tool "${tool.name}", rule "${rule.id}": approver group "${rule.approverGroup}" is not one of the tenant's approvals.groups (${[...approverGroups].join(', ') || 'none'})`,
      });
    if (rule.then === 'mask' && rule.mask?.input?.length && tool.inputSchema)
      for (const why of maskPathProblems(rule.mask.input, tool.inputSchema))
        problems.push({ index, field: 'mask', problem: `tool "${tool.name}", rule "${rule.id}": ${why}` });
    const approval = tool.riskLevel === 'L3' ? 'always' : tool.approval;
    if (rule.then === 'allow' && approval !== 'never') {
      problems.push({
        index,
        field: 'then',
        problem: `tool "${tool.name}", rule "${rule.id}": "allow" cannot remove the approval the tool requires (${tool.riskLevel}, approval "${approval}"); rules may only tighten: use require_approval or deny`,
      });
    }
  });
  return problems;
}
