/**
 * The rules' and guardrails' forms (issue 26, ADR 041 and 045) as plain functions: a new rule,
 * switching a rule's outcome (the fields of the other outcomes go), the entries cleaned of empty
 * fields before they are compared or sent, and the gateway's issues found by the field they name.
 */
import type {
  GuardrailCheck,
  GuardrailPii,
  RuleOutcome,
  ToolGuardrails,
  ToolRule,
} from '@toolgate/contract/rules';
import type { Issue } from '../../api/types';

export const RULE_OUTCOMES: readonly RuleOutcome[] = ['allow', 'deny', 'require_approval', 'mask', 'limit'];
export const GUARDRAIL_PII: readonly GuardrailPii[] = ['cn_id', 'mobile', 'bank_card', 'email'];
export type GuardrailSide = 'input' | 'output';
/** What a guardrail may do when it finds something: a result cannot wait for an approver. */
export const GUARDRAIL_ACTIONS: Record<GuardrailSide, readonly GuardrailCheck['action'][]> = {
  input: ['mask', 'block', 'require_approval'],
  output: ['mask', 'block'],
};

/** A new rule at the end of a tool's list, with an id the list does not have yet. */
export function blankRule(existing: readonly ToolRule[]): ToolRule {
  const ids = new Set(existing.map((r) => r.id));
  let n = existing.length + 1;
  while (ids.has(`rule-${n}`)) n++;
  return { id: `rule-${n}`, when: '', then: 'deny' };
}

/**
 * The rule with another outcome: id, condition and reason stay; the fields only the old outcome
 * takes go (the gateway refuses `limit` on a mask rule), and a mask or limit rule starts with an
 * empty mask or a one-per-key-per-hour bucket to fill in.
 */
export function withOutcome(rule: ToolRule, then: RuleOutcome): ToolRule {
  const next: ToolRule = { id: rule.id, when: rule.when, then };
  if (rule.reason) next.reason = rule.reason;
  if (then === 'require_approval') {
    if (rule.approvers !== undefined) next.approvers = rule.approvers;
    if (rule.expiresInMs !== undefined) next.expiresInMs = rule.expiresInMs;
    if (rule.approverGroup) next.approverGroup = rule.approverGroup;
  }
  if (then === 'mask') next.mask = rule.mask ?? {};
  if (then === 'limit') next.limit = rule.limit ?? { max: 1, per: 'hour', scope: 'key' };
  return next;
}

/** A rule with only what is filled in, in one key order, so equal rules compare equal. */
export function cleanRule(rule: ToolRule): ToolRule {
  const out: ToolRule = { id: rule.id, when: rule.when, then: rule.then };
  if (rule.reason && (rule.reason.en || rule.reason.zh)) out.reason = rule.reason;
  if (rule.approvers !== undefined && rule.approvers !== null) out.approvers = rule.approvers;
  if (rule.expiresInMs !== undefined && rule.expiresInMs !== null) out.expiresInMs = rule.expiresInMs;
  if (rule.approverGroup) out.approverGroup = rule.approverGroup;
  if (rule.mask) {
    const mask: NonNullable<ToolRule['mask']> = {};
    if (rule.mask.input?.length) mask.input = rule.mask.input;
    if (rule.mask.output?.length) mask.output = rule.mask.output;
    if (rule.mask.piClass) mask.piClass = rule.mask.piClass;
    out.mask = mask; // kept when empty: the gateway names what a mask rule lacks
  }
  if (rule.limit) out.limit = rule.limit;
  return out;
}

/** One side of a guardrail with only what is set; none when it looks for nothing. */
function cleanCheck(check: GuardrailCheck | undefined): GuardrailCheck | undefined {
  if (!check) return undefined;
  const out: GuardrailCheck = { action: check.action };
  if (check.pii?.length) out.pii = check.pii;
  if (check.secrets) out.secrets = true;
  if (check.injection) out.injection = true;
  return out.pii || out.secrets || out.injection ? out : undefined;
}

/** A tool's guardrails with empty sides left out; none when neither side looks for anything. */
export function cleanGuardrails(g: ToolGuardrails | undefined): ToolGuardrails | undefined {
  const input = cleanCheck(g?.input);
  const output = cleanCheck(g?.output);
  if (!input && !output) return undefined;
  return { ...(input ? { input } : {}), ...(output ? { output } : {}) };
}

/**
 * The guardrails with one side changed. A side that looks for nothing any more is dropped (its
 * action with it); a side that starts looking takes `mask` until an action is picked.
 */
export function withCheck(
  g: ToolGuardrails | undefined,
  side: GuardrailSide,
  patch: Partial<GuardrailCheck>,
): ToolGuardrails | undefined {
  const check = { action: 'mask' as const, ...g?.[side], ...patch };
  return cleanGuardrails({ ...g, [side]: check });
}

/** The approver groups the tenant declares (`approvals.groups` of its file), by name. */
export function approverGroupsOf(settings: Readonly<Record<string, unknown>> | undefined): string[] {
  const approvals = settings?.approvals as { groups?: unknown } | undefined;
  const groups = approvals?.groups;
  return groups && typeof groups === 'object' ? Object.keys(groups).sort() : [];
}

/** Issues under `prefix` (a rule's or a guardrail side's path), found by the field they name. */
export function issuesUnder(issues: readonly Issue[], prefix: string) {
  const mine = issues.filter((i) => i.path === prefix || i.path.startsWith(`${prefix}.`));
  const at = (field: string) =>
    mine.filter((i) => i.path === `${prefix}.${field}` || i.path.startsWith(`${prefix}.${field}.`));
  return {
    all: mine,
    /** The messages about one field (and what is inside it), joined for a form item's help. */
    help: (field: string) =>
      at(field)
        .map((i) => i.message)
        .join('；') || undefined,
    status: (field: string) => (at(field).length ? ('error' as const) : undefined),
    /** Issues that name none of `fields` (the whole rule, or a field the form does not show). */
    rest: (fields: readonly string[]) => mine.filter((i) => !fields.some((f) => at(f).includes(i))),
  };
}
