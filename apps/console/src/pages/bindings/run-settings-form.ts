/**
 * An agent type's run settings as the editor's form holds them: text inputs for the model, empty
 * number inputs while someone types. Bounds and defaults are the contract's (the same values the
 * gateway checks with).
 */
import { AGENT_RUN_LIMITS } from '@toolgate/contract/rules';
import type { AgentRunSettings } from '../../api/types';

export interface RunForm {
  readonly provider: string;
  readonly modelName: string;
  readonly instructions: string;
  readonly maxSteps: number | null;
  readonly deadlineMs: number | null;
  readonly maxParallelToolCalls: number | null;
  readonly tokenBudget: number | null;
  readonly subAgents: readonly string[];
}

export function runForm(run: AgentRunSettings): RunForm {
  return {
    provider: run.model?.provider ?? '',
    modelName: run.model?.name ?? '',
    instructions: run.instructions,
    maxSteps: run.maxSteps,
    deadlineMs: run.deadlineMs,
    maxParallelToolCalls: run.maxParallelToolCalls,
    tokenBudget: run.tokenBudget,
    subAgents: run.subAgents,
  };
}

/**
 * The settings a form stands for: an emptied limit takes its default; no model when both model
 * fields are empty (the platform default), otherwise both are sent and the gateway checks them.
 */
export function runSettings(form: RunForm): AgentRunSettings {
  const provider = form.provider.trim();
  const name = form.modelName.trim();
  return {
    model: provider || name ? { provider, name } : null,
    instructions: form.instructions,
    maxSteps: form.maxSteps ?? AGENT_RUN_LIMITS.maxSteps.default,
    deadlineMs: form.deadlineMs ?? AGENT_RUN_LIMITS.deadlineMs.default,
    maxParallelToolCalls: form.maxParallelToolCalls ?? AGENT_RUN_LIMITS.maxParallelToolCalls.default,
    tokenBudget: form.tokenBudget,
    subAgents: [...form.subAgents],
  };
}

/** True when two run settings are the same (field by field, in the contract's order). */
export function sameRun(a: AgentRunSettings, b: AgentRunSettings): boolean {
  const key = (r: AgentRunSettings) => JSON.stringify(runSettings(runForm(r)));
  return key(a) === key(b);
}
