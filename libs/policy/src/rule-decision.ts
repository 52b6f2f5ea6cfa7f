import type { ToolRule } from '@toolgate/contract/rules';
import type { CompiledRule, RuleFacts } from './rule-compiler.js';

/** The rule that decided, and whether it could be evaluated at all (not: the call is refused). */
export interface RuleMatch {
  readonly rule: ToolRule;
  readonly failed: boolean;
  /** Why the rule could not be evaluated (for the log and the check endpoint, never the agent). */
  readonly error?: string;
}

/**
 * The first rule, in written order, whose `when` is true; null when none is. A rule that throws
 * decides too: the call is refused (fail closed), whatever the rule's `then` says.
 */
export function firstMatch(rules: readonly CompiledRule[], facts: RuleFacts): RuleMatch | null {
  for (const c of rules) {
    let hit: boolean;
    try {
      hit = c.matches(facts);
    } catch (err) {
      return {
        rule: c.rule,
        failed: true,
        error: (err instanceof Error ? err.message : String(err)).split('\n')[0],
      };
    }
    if (hit) return { rule: c.rule, failed: false };
  }
  return null;
}

/**
 * Whether the rules refuse every call of this principal, whatever the input: walking in order, the
 * first rule that reads the call (`input`, `face`, `run`) makes it undecidable here (false); the
 * first that matches without it decides (deny, or a rule that cannot be evaluated: true).
 * `facts` carries the principal, the tool and the time; its call fields are never read.
 */
export function deniesEveryCall(rules: readonly CompiledRule[], facts: RuleFacts): boolean {
  for (const c of rules) {
    if (c.needsCall) return false;
    let hit: boolean;
    try {
      hit = c.matches(facts);
    } catch {
      return true;
    }
    if (hit) return c.rule.then === 'deny';
  }
  return false;
}

/** A match's outcome: a rule that could not be evaluated denies. */
export function outcomeOf(match: RuleMatch): ToolRule['then'] {
  return match.failed ? 'deny' : match.rule.then;
}

/** Why a match refuses, in the caller's language: the rule's reason, or that it could not be evaluated. */
export function reasonOf(match: RuleMatch, locale: 'zh-CN' | 'en'): string {
  if (match.failed)
    return locale === 'en'
      ? 'the rule could not be evaluated on this input, so the call is refused'
      : '该规则无法对此输入求值，调用已按失败即拒绝处理';
  const reason = match.rule.reason ?? {
    en: `refused by rule ${match.rule.id}`,
    zh: `被规则 ${match.rule.id} 拒绝`,
  };
  return locale === 'en' ? reason.en : reason.zh;
}
