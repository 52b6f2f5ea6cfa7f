import { redactionSettingsSchema } from '@toolgate/audit';
import {
  AGENT_TYPE,
  agentRunSettingsInput,
  bindingToolEntrySchema,
  isTenantEnvName,
  TENANT_ID,
  tenantEnvNamespace,
  type AgentRunSettingsView,
} from '@toolgate/contract';
import { notificationSettingsSchema, secretEnvNames } from '@toolgate/notifications/settings';
import { z } from 'zod';
import { subAgentProblems } from '../agent-run-settings.js';

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

/**
 * A call quota: per tenant or per API key, for one tool or all (`*`), in calls per minute; with
 * `face`, only for the calls that come in that way (REST, MCP or agent runs), counted apart.
 */
export const callQuotaSchema = z.strictObject({
  scope: z.enum(['tenant', 'key']).default('tenant'),
  tool: z.string().min(1).default('*'),
  face: z.enum(['rest', 'mcp', 'run']).optional(),
  perMinute: z.number().int().positive(),
});
export type CallQuota = z.infer<typeof callQuotaSchema>;

/**
 * The tenant's model tokens per UTC day, all its runs together (`null`: no limit, as when absent).
 * Runs do not start once the day's tokens are spent, and a running one fails before its next turn.
 */
export const tokenQuotaSchema = z.strictObject({
  tokensPerDay: z.number().int().positive().nullable(),
});
export type TokenQuota = z.infer<typeof tokenQuotaSchema>;

/** One entry of a tenant's `quotas:` list: a call quota or the day's token budget. */
export const quotaSchema = z.union([callQuotaSchema, tokenQuotaSchema]);
export type Quota = z.infer<typeof quotaSchema>;

/** The tenant's approval policy beyond the tools' own. */
export const tenantApprovalSettingsSchema = z.strictObject({
  /** L3 calls need two distinct approvers. */
  twoApproversForL3: z.boolean().default(false),
});
export type TenantApprovalSettings = z.infer<typeof tenantApprovalSettingsSchema>;

/** The sections of a tenant file kept as the tenant's settings (its policies beyond the bindings). */
export const TENANT_SETTINGS_KEYS = ['audit', 'approvals', 'quotas', 'notifications'] as const;

/** A `config/tenants/<id>.yaml` file. */
export const tenantFileSchema = z
  .strictObject({
    id: TENANT_ID,
    name: z.string().min(1),
    /** Demo tenants load only when TOOLGATE_DEMO is on. */
    demo: z.boolean().default(false),
    locale: z.enum(['zh-CN', 'en']).optional(),
    /** Backends by connector name; values may use ${ENV_VAR} and ${ENV_VAR:-default}. */
    connectors: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
    agentTypes: z.record(AGENT_TYPE, agentTypeSchema).default({}),
    /** How this tenant's audit trail redacts values (mask or keyed fingerprint; which patterns). */
    audit: z
      .strictObject({
        redaction: redactionSettingsSchema.optional(),
        /** Agent runs' questions, answers and model text in the trail (redacted like inputs); off by default. */
        runText: z.boolean().optional(),
      })
      .optional(),
    approvals: tenantApprovalSettingsSchema.optional(),
    quotas: z.array(quotaSchema).optional(),
    /** Where approvals are announced (webhook, DingTalk, Feishu, WeCom) and who decides from Feishu. */
    notifications: notificationSettingsSchema.optional(),
  })
  // Sub-agents name other agent types of the same file, without delegation cycles.
  .superRefine((file, ctx) => {
    const graph = new Map(Object.entries(file.agentTypes).map(([name, a]) => [name, a.subAgents]));
    for (const p of subAgentProblems(graph))
      ctx.addIssue({
        code: 'custom',
        path: ['agentTypes', p.agentType, 'subAgents', p.index],
        message: p.problem,
      });
    // Notification secrets come from the tenant's own namespace of the environment only.
    const namespace = tenantEnvNamespace('notification', file.id);
    for (const v of file.notifications ? secretEnvNames(file.notifications) : [])
      if (!isTenantEnvName('notification', file.id, v.name))
        ctx.addIssue({
          code: 'custom',
          path: ['notifications', ...v.path],
          message: `name a variable of this tenant: ${namespace}<NAME>`,
        });
  });
export type TenantFile = z.infer<typeof tenantFileSchema>;
