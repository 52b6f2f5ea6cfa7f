import type { Redactor } from '@toolgate/audit';
import type { RuleMask } from '@toolgate/contract/rules';
import type { CompiledSchema, InputIssue, MarkedField } from '@toolgate/toolkit';
import type { RuleMatch } from './rule-decision.js';

/**
 * A mask rule's paths as the redactor marks fields: `items.*.card` → ['items', '*', 'card']. No
 * class: `sensitive_personal`, sealed as `[REDACTED]` in every redaction mode (never a fingerprint).
 */
export function maskedFields(paths: readonly string[] | undefined, mask: RuleMask): MarkedField[] {
  const piClass = mask.piClass ?? 'sensitive_personal';
  return (paths ?? []).map((p) => ({ path: p.split('.'), piClass }));
}

/**
 * The input with a mask rule's input fields redacted by the tenant's redactor, checked again by the
 * tool's own schema: a masked value is a string, and a field the save-time check could not see
 * (an open object, a `$ref`, a pattern) may refuse it. Then the call is refused, never run with an
 * input its tool does not accept (the rule cannot be applied: it fails closed, ADR 041).
 */
export function maskInput(
  redactor: Redactor,
  input: unknown,
  mask: RuleMask,
  schema: Pick<CompiledSchema, 'check'>,
): { ok: true; value: unknown } | { ok: false; issues: InputIssue[] } {
  const value = redactor.maskFields(input, maskedFields(mask.input, mask));
  const checked = schema.check(value);
  return checked.ok ? { ok: true, value } : checked;
}

/** A rewrite of the result that redacts a mask rule's output fields, or undefined when it names none. */
export function outputMasker(redactor: Redactor, mask: RuleMask): ((output: unknown) => unknown) | undefined {
  const fields = maskedFields(mask.output, mask);
  return fields.length ? (output) => redactor.maskFields(output, fields) : undefined;
}

/**
 * A mask rule whose masked input its tool refuses, as a match that could not be evaluated: the
 * call is refused (POLICY_DENIED) and the log names the fields, never their values.
 */
export function unfitMask(match: RuleMatch, issues: readonly InputIssue[]): RuleMatch {
  const fields = [...new Set(issues.map((i) => i.path.join('.') || '(input)'))].slice(0, 5).join(', ');
  return { ...match, failed: true, error: `its mask leaves an input the tool refuses (${fields})` };
}
