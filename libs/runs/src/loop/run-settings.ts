import type { ModelRef } from '@toolgate/models';
import type { AgentRunSettings, ResolvedAgentType } from '@toolgate/tenancy';

export type { AgentRunSettings };

/** The run settings of a resolved agent type (the tenancy lib fills in the defaults). */
export const runSettingsOf = (binding: ResolvedAgentType): AgentRunSettings => binding.run;

/** `provider/model` as stored with a run and shown in its view. */
export const modelLabel = (ref: ModelRef): string => `${ref.provider}/${ref.model}`;

/** The inverse of `modelLabel` (the model name may itself contain slashes). */
export function parseModelLabel(label: string): ModelRef {
  const slash = label.indexOf('/');
  return { provider: label.slice(0, slash), model: label.slice(slash + 1) };
}
