import { z } from 'zod';
import { instant } from './common.schema.js';
import { named } from './registry.js';

/** `PUT /v1/admin/tenants/:tenantId/retention`: days the trail stays in the database (null: the file's, or the default). */
export const setRetentionBody = z.strictObject({
  days: z
    .number()
    .int()
    .min(0)
    .max(36_500)
    .nullable()
    .describe(
      "Days after which archived events are purged from the database; never below the platform's floor (`RETENTION_BELOW_FLOOR`). null: the tenant file's `audit.retentionDays`, else the platform default",
    ),
});
export type SetRetentionBody = z.infer<typeof setRetentionBody>;

/** `PUT /v1/admin/tenants/:tenantId/legal-hold`: why the trail must not be purged. */
export const legalHoldBody = z.strictObject({
  reason: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe('Why (a case, a request): kept with the hold and in the event'),
});
export type LegalHoldBody = z.infer<typeof legalHoldBody>;

/** `GET /v1/audit/retention?tenantId=`. */
export const retentionQuery = z.strictObject({ tenantId: z.string().max(64).optional() });
export type RetentionQuery = z.infer<typeof retentionQuery>;

/** One tenant's retention, legal hold, and how far its trail is archived and purged. */
export const tenantRetentionSchema = named(
  'TenantRetention',
  z.object({
    tenantId: z.string(),
    retentionDays: z.number().int().describe('Effective: events older than this are purged once archived'),
    retentionSource: z
      .enum(['api', 'file', 'default', 'floor'])
      .describe('`floor`: what was set is below the platform floor, which applies instead'),
    floorDays: z.number().int().describe("The platform's floor (180 under the dengbao3 profile)"),
    hold: z
      .object({ reason: z.string(), by: z.string(), since: instant() })
      .nullable()
      .describe('A legal hold: nothing of the trail is purged while it stands'),
    headSeq: z.number().int().describe('Events in the chain'),
    archivedThroughSeq: z.number().int().describe('Events up to this seq are in the archive'),
    archivedFiles: z.number().int(),
    archivedAt: instant().nullable(),
    purgedThroughSeq: z.number().int().describe('Events up to this seq were purged from the database'),
    purgedEvents: z.number().int(),
    purgedAt: instant().nullable(),
    purgeUnavailable: z
      .string()
      .nullable()
      .describe(
        'Why purging cannot run on this deployment (e.g. DATABASE_PURGE_URL missing under the profile)',
      ),
    lastRun: z
      .object({
        at: instant(),
        archivedFiles: z.number().int(),
        archivedEvents: z.number().int(),
        purgedEvents: z.number().int(),
        purgedCalls: z.number().int(),
        archiveMs: z.number().int().describe('How long archiving took (ms)'),
        purgeMs: z.number().int().describe('How long purging took (ms); 0 when nothing was purged'),
        purgeSkipped: z.string().optional(),
        problem: z.string().optional(),
      })
      .nullable()
      .describe("This gateway's last run for the tenant (null: none since it started)"),
  }),
);
export type TenantRetention = z.infer<typeof tenantRetentionSchema>;
