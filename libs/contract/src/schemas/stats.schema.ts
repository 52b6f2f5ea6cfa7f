import { z } from 'zod';
import { instant } from './common.schema.js';
import { named } from './registry.js';

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
