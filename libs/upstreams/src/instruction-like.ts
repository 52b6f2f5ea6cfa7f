import { scanContent } from '@toolgate/policy';
import type { UpstreamToolDefinition } from './sources/tool-source.js';

const LOOK_FOR = { injection: true, action: 'block' } as const;

/**
 * Instruction-like text in an imported tool's definition (issue 26, ADR 045): its title,
 * description and schemas (property descriptions included) as the model will read them, scanned
 * with the guardrails' prompt-injection heuristic. The kinds found (`injection:role_override`, …),
 * for the audit event of an import or of a changed definition; empty when none.
 */
export function instructionLikeIn(def: UpstreamToolDefinition): readonly string[] {
  return scanContent(
    {
      title: def.title ?? '',
      description: def.description,
      input: def.inputSchema,
      output: def.outputSchema ?? null,
    },
    LOOK_FOR,
    false,
  ).found;
}
