import { redactionSettingsSchema } from '@toolgate/audit';
import { AGENT_TYPE, bindingToolEntrySchema, TENANT_ID } from '@toolgate/contract';
import { z } from 'zod';

// Tenant and agent-type identifiers (lower-case, readable in URLs and file names; single `-` or
// `_` between letters and digits only, so that no tenant's variable namespace `TOOLGATE_T_<ID>__`
// can be the start of another's) and binding entries are the REST contract's, shared with files.
export { AGENT_TYPE, bindingToolEntrySchema, bindingToolSchema, TENANT_ID } from '@toolgate/contract';
export type { BindingTool } from '@toolgate/contract';

const agentTypeSchema = z.strictObject({
  description: z.string().default(''),
  tools: z.array(bindingToolEntrySchema).default([]),
});

/** A call quota: per tenant or per API key, for one tool or all (`*`), in calls per minute. */
export const quotaSchema = z.strictObject({
  scope: z.enum(['tenant', 'key']).default('tenant'),
  tool: z.string().min(1).default('*'),
  perMinute: z.number().int().positive(),
});
export type Quota = z.infer<typeof quotaSchema>;

/** The tenant's approval policy beyond the tools' own. */
export const tenantApprovalSettingsSchema = z.strictObject({
  /** L3 calls need two distinct approvers. */
  twoApproversForL3: z.boolean().default(false),
});
export type TenantApprovalSettings = z.infer<typeof tenantApprovalSettingsSchema>;

/** The sections of a tenant file kept as the tenant's settings (its policies beyond the bindings). */
export const TENANT_SETTINGS_KEYS = ['audit', 'approvals', 'quotas'] as const;

/** A `config/tenants/<id>.yaml` file. */
export const tenantFileSchema = z.strictObject({
  id: TENANT_ID,
  name: z.string().min(1),
  /** Demo tenants load only when TOOLGATE_DEMO is on. */
  demo: z.boolean().default(false),
  locale: z.enum(['zh-CN', 'en']).optional(),
  /** Backends by connector name; values may use ${ENV_VAR} and ${ENV_VAR:-default}. */
  connectors: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  agentTypes: z.record(AGENT_TYPE, agentTypeSchema).default({}),
  /** How this tenant's audit trail redacts values (mask or keyed fingerprint; which patterns). */
  audit: z.strictObject({ redaction: redactionSettingsSchema.optional() }).optional(),
  approvals: tenantApprovalSettingsSchema.optional(),
  quotas: z.array(quotaSchema).optional(),
});
export type TenantFile = z.infer<typeof tenantFileSchema>;
