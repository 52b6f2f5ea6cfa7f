import { z } from 'zod';
import { instant } from './common.schema.js';
import { named } from './registry.js';
import { runStatusSchema, runUsageSchema } from './runs.schema.js';

/** Audited calls of one tenant and tool in one time bucket. */
export const statsBucketSchema = named(
  'StatsBucket',
  z.object({
    start: instant(),
    tenantId: z.string(),
    tool: z.string(),
    calls: z.number().int(),
    errors: z.number().int(),
    errorRate: z.number().describe('errors / calls; 0 when there were no calls'),
    p95Ms: z.number().describe('Estimated from a duration histogram; 0 when there were no calls'),
  }),
);
export type StatsBucket = z.infer<typeof statsBucketSchema>;

/** The runs of one tenant and agent type started in the stats window: how many, how they stand, tokens. */
export const runStatsRowSchema = named(
  'RunStatsRow',
  z.object({
    tenantId: z.string(),
    agentType: z.string(),
    runs: z.number().int(),
    byStatus: z.record(runStatusSchema, z.number().int()).describe('Runs per status; every status present'),
    usage: runUsageSchema.describe('Model tokens these runs spent'),
  }),
);
export type RunStatsRow = z.infer<typeof runStatsRowSchema>;

/** One tenant's model tokens of the current UTC day and its daily limit. */
export const tenantTokenDaySchema = named(
  'TenantTokenDay',
  z.object({
    tenantId: z.string(),
    tokens: z.number().int(),
    tokensPerDay: z
      .number()
      .int()
      .nullable()
      .describe("The tenant's `quotas: [{tokensPerDay}]`; null: no limit"),
  }),
);
export type TenantTokenDay = z.infer<typeof tenantTokenDaySchema>;

/** Agent runs in the overview: the window's runs per tenant and agent type, and today's tokens. */
export const runStatsSchema = named(
  'RunStats',
  z.object({
    agentTypes: z
      .array(runStatsRowSchema)
      .describe(
        'Runs created between from and to, per tenant and agent type, ordered by tenant then agent type',
      ),
    today: z
      .object({
        day: z.string().describe('The current UTC day, YYYY-MM-DD'),
        resetAt: instant().describe('00:00 UTC of the next day, when the daily budgets renew'),
        tenants: z
          .array(tenantTokenDaySchema)
          .describe('Tenants with tokens today (a tenant admin: its own)'),
      })
      .describe("Model tokens of the current UTC day, the tenants' daily budgets count these"),
  }),
);
export type RunStats = z.infer<typeof runStatsSchema>;

/** `GET /v1/admin/stats`: the console overview. */
export const statsSchema = named(
  'Stats',
  z.object({
    from: instant(),
    to: instant(),
    bucketMinutes: z.number().int(),
    buckets: z.array(statsBucketSchema),
    pendingApprovals: z.number().int(),
    incompleteCalls: z.number().int(),
    runs: runStatsSchema,
  }),
);
export type Stats = z.infer<typeof statsSchema>;

/** Query of `GET /v1/admin/stats`. */
export const statsQuery = z.strictObject({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  bucketMinutes: z.coerce.number().int().min(1).max(1440).default(5),
});
export type StatsQuery = z.infer<typeof statsQuery>;
