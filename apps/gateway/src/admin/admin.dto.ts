import { AGENT_TYPE, bindingToolEntrySchema, TENANT_ID } from '@toolgate/tenancy';
import { z } from 'zod';

/** Body of `POST /v1/admin/tenants`. */
export const createTenantBody = z.strictObject({
  id: TENANT_ID,
  name: z.string().min(1).max(200),
  locale: z.enum(['zh-CN', 'en']).optional(),
});
export type CreateTenantBody = z.infer<typeof createTenantBody>;

const bindingTools = z.array(bindingToolEntrySchema).max(500);

/** Body of `PUT .../agents/:agentType/bindings`: the whole new tool list and the version it replaces. */
export const replaceBindingsBody = z.strictObject({
  version: z
    .number()
    .int()
    .nonnegative()
    .describe('The version this change is based on (0 for a new agent type)'),
  tools: bindingTools,
  description: z.string().max(500).optional(),
});
export type ReplaceBindingsBody = z.infer<typeof replaceBindingsBody>;

/** Body of `POST .../agents/:agentType/bindings/preview`. */
export const previewBindingsBody = z.strictObject({ tools: bindingTools });
export type PreviewBindingsBody = z.infer<typeof previewBindingsBody>;

/** Body of `POST .../import`: a tenant file as exported. */
export const importTenantBody = z.strictObject({
  yaml: z
    .string()
    .min(1)
    .max(512 * 1024),
});
export type ImportTenantBody = z.infer<typeof importTenantBody>;

export const historyQuery = z.strictObject({ agentType: z.string().max(64).optional() });
export type HistoryQuery = z.infer<typeof historyQuery>;

export const agentTypeParam = AGENT_TYPE.max(64);
