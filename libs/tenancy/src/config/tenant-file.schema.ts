import {
  AGENT_TYPE,
  agentRunSettingsInput,
  bindingToolEntrySchema,
  TENANT_ID,
  type AgentRunSettingsView,
} from '@toolgate/contract';
import { z } from 'zod';
import { subAgentProblems } from '../agent-run-settings.js';
import type { TenantSections } from './tenant-sections.js';

// Tenant and agent-type identifiers (lower-case, readable in URLs and file names; single `-` or
// `_` between letters and digits only, so that no tenant's variable namespace `TOOLGATE_T_<ID>__`
// can be the start of another's) and binding entries are the REST contract's, shared with files.
export { AGENT_TYPE, bindingToolEntrySchema, bindingToolSchema, TENANT_ID } from '@toolgate/contract';
export type { BindingTool } from '@toolgate/contract';

/** An agent type: what it is, which tools it may use, and how its runs go (the admin API's fields). */
const agentTypeSchema = z.strictObject({
  description: z.string().default(''),
  tools: z.array(bindingToolEntrySchema).default([]),
  ...agentRunSettingsInput.shape,
});
export type TenantFileAgentType = z.infer<typeof agentTypeSchema>;

/** The run settings of an agent type of a file, as the admin API stores and shows them. */
export function runSettingsOf(a: TenantFileAgentType): AgentRunSettingsView {
  return {
    model: a.model,
    instructions: a.instructions,
    maxSteps: a.maxSteps,
    deadlineMs: a.deadlineMs,
    maxParallelToolCalls: a.maxParallelToolCalls,
    tokenBudget: a.tokenBudget,
    subAgents: a.subAgents,
  };
}

/** The fields of every tenant file, whatever sections the platform composes it with. */
const tenantFileBaseShape = {
  id: TENANT_ID,
  name: z.string().min(1),
  /** Demo tenants load only when TOOLGATE_DEMO is on. */
  demo: z.boolean().default(false),
  locale: z.enum(['zh-CN', 'en']).optional(),
  /** Backends by connector name; values may use ${ENV_VAR} and ${ENV_VAR:-default}. */
  connectors: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  agentTypes: z.record(AGENT_TYPE, agentTypeSchema).default({}),
};
const tenantFileBase = z.strictObject(tenantFileBaseShape);

/**
 * A parsed `config/tenants/<id>.yaml` file: its own fields, and each section the platform composed
 * it with (`TenantSections`), read back by the lib that owns it with that lib's schema.
 */
export type TenantFile = z.output<typeof tenantFileBase> & { readonly [section: string]: unknown };

/**
 * The schema of a `config/tenants/<id>.yaml` file with `sections` (each optional): the gateway
 * composes it from the libs' section schemas. Unknown keys are refused.
 */
export function tenantFileSchemaOf(sections: TenantSections) {
  // Typed as no fields on purpose: each section is read back by its own lib with its own schema.
  const sectionShape: Record<never, never> = Object.fromEntries(
    Object.entries(sections).map(([key, section]) => [key, section.schema.optional()]),
  );
  return (
    tenantFileBase
      .extend(sectionShape)
      // Sub-agents name other agent types of the same file, without delegation cycles.
      .superRefine((file, ctx) => {
        const graph = new Map(Object.entries(file.agentTypes).map(([name, a]) => [name, a.subAgents]));
        for (const p of subAgentProblems(graph))
          ctx.addIssue({
            code: 'custom',
            path: ['agentTypes', p.agentType, 'subAgents', p.index],
            message: p.problem,
          });
      })
  );
}
