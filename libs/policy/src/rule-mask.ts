import type { Redactor } from '@toolgate/audit';
import type { RuleMask } from '@toolgate/contract/rules';
import type { MarkedField } from '@toolgate/toolkit';

/**
 * A mask rule's paths as the redactor marks fields: `items.*.card` → ['items', '*', 'card']. No
 * class: `sensitive_personal`, sealed as `[REDACTED]` in every redaction mode (never a fingerprint).
 */
export function maskedFields(paths: readonly string[] | undefined, mask: RuleMask): MarkedField[] {
  const piClass = mask.piClass ?? 'sensitive_personal';
  return (paths ?? []).map((p) => ({ path: p.split('.'), piClass }));
}

/** The input with a mask rule's input fields redacted by the tenant's redactor. */
export function maskInput(redactor: Redactor, input: unknown, mask: RuleMask): unknown {
  return redactor.maskFields(input, maskedFields(mask.input, mask));
}

/** A rewrite of the result that redacts a mask rule's output fields, or undefined when it names none. */
export function outputMasker(redactor: Redactor, mask: RuleMask): ((output: unknown) => unknown) | undefined {
  const fields = maskedFields(mask.output, mask);
  return fields.length ? (output) => redactor.maskFields(output, fields) : undefined;
}
