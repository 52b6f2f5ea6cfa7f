import type { TenantSection } from '@toolgate/tenancy';
import { z } from 'zod';

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

/** A tenant file's `quotas:` section: the quotas lib's per-tenant settings (ADR 031). */
export const tenantQuotasSchema = z.array(quotaSchema);

/**
 * The `quotas:` section of a tenant file, with its one check a schema cannot make: a token quota
 * above the platform's ceiling (`quotas.maxTokensPerDay`) is refused when the file is saved.
 */
export const tenantQuotasSection: TenantSection<typeof tenantQuotasSchema> = {
  schema: tenantQuotasSchema,
  problems: (quotas, { ceilings }) => {
    const max = ceilings.maxTokensPerDay;
    if (max === null) return [];
    return quotas.flatMap((q, i) =>
      'tokensPerDay' in q && q.tokensPerDay !== null && q.tokensPerDay > max
        ? [
            {
              path: [i, 'tokensPerDay'],
              message: `${q.tokensPerDay} is above the platform's ceiling of ${max} tokens per day (quotas.maxTokensPerDay in toolgate.yaml); ask a platform admin`,
            },
          ]
        : [],
    );
  },
};
