import { z } from 'zod';
import { bindingViewSchema } from './bindings.schema.js';
import { instant, localeSchema, TENANT_ID } from './common.schema.js';
import { named } from './registry.js';

/** A tenant as the admin API shows it: connector names only, never their settings or secrets. */
export const tenantViewSchema = named(
  'Tenant',
  z.object({
    id: z.string(),
    name: z.string(),
    locale: localeSchema.nullable().describe('null: the platform default'),
    demo: z.boolean(),
    connectors: z.array(z.string()),
    settings: z.record(z.string(), z.unknown()),
    createdAt: instant(),
    updatedAt: instant(),
  }),
);
export type TenantView = z.infer<typeof tenantViewSchema>;

/** `GET /v1/admin/tenants/:tenantId`: the tenant and its bindings. */
export const tenantDetailSchema = named(
  'TenantDetail',
  tenantViewSchema.extend({ agentTypes: z.array(bindingViewSchema) }),
);
export type TenantDetail = z.infer<typeof tenantDetailSchema>;

/** `POST .../import`: the agent types that became new versions. */
export const importResultSchema = named(
  'ImportResult',
  z.object({
    tenantId: z.string(),
    changed: z.array(z.string()),
    unchanged: z.boolean().describe('true when the file changed nothing'),
  }),
);
export type ImportResult = z.infer<typeof importResultSchema>;

/** Body of `POST /v1/admin/tenants`. */
export const createTenantBody = z.strictObject({
  id: TENANT_ID,
  name: z.string().min(1).max(200),
  locale: localeSchema.optional(),
});
export type CreateTenantBody = z.infer<typeof createTenantBody>;

/** Body of `POST .../import`: a tenant file as exported. */
export const importTenantBody = z.strictObject({
  yaml: z
    .string()
    .min(1)
    .max(512 * 1024),
});
export type ImportTenantBody = z.infer<typeof importTenantBody>;

/** One processing record of a tenant (PIPL 第55–56条, ADR 040), with its recipient and counts. */
export const processingRecordSchema = named(
  'ProcessingRecord',
  z.object({
    tool: z.string(),
    purpose: z.string(),
    categories: z.array(z.string()).describe('Categories of personal information the tool processes'),
    recipient: z.string().describe('The connector, upstream or model provider the fields go to'),
    legalBasis: z.string().describe('PIPL 第十三条: consent, contract, legal_obligation, …'),
    region: z
      .string()
      .nullable()
      .describe('The recipient’s region (ISO 3166-1 alpha-2; CN is mainland China)'),
    regionSource: z
      .enum(['connector', 'upstream', 'model_provider', 'recipients'])
      .nullable()
      .describe(
        'Which record declares the region: the connector’s block, the upstream, the model provider, or the tenant file’s dataProtection.recipients (ADR 047); null: none does',
      ),
    crossBorder: z
      .boolean()
      .describe('The recipient is outside mainland China, or its region is not declared'),
    crossBorderBasis: z
      .object({ basis: z.string(), reference: z.string().nullable() })
      .nullable()
      .describe('The declared legal basis of the transfer (PIPL 第三十八条)'),
    calls: z
      .number()
      .int()
      .describe(
        'Calls of the tool (and model turns of agent runs carrying its classified results, when the recipient is a model provider) that sent classified fields to the recipient, every gateway together',
      ),
    lastCountedAt: instant()
      .nullable()
      .describe(
        'When a call was last counted; the count is kept compliance.processingRecordsDays after it (ADR 047)',
      ),
  }),
);
export type ProcessingRecordEntry = z.infer<typeof processingRecordSchema>;
