import { z } from 'zod';

/** Filters of `GET /v1/audit/events` and `/export` (CONTRACT.md "Audit"). */
export const auditFilterSchema = z.strictObject({
  tenantId: z.string().max(64).optional(),
  tool: z.string().max(64).optional(),
  riskLevel: z.enum(['L0', 'L1', 'L2', 'L3']).optional(),
  actorId: z.string().max(64).optional(),
  status: z.enum(['ok', 'error']).optional(),
  code: z.string().max(64).optional(),
  event: z.string().max(32).optional(),
  callId: z.string().max(64).optional(),
  from: z.iso.datetime({ offset: true }).optional().describe('ISO-8601, inclusive'),
  to: z.iso.datetime({ offset: true }).optional().describe('ISO-8601, inclusive'),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditListQuerySchema = auditFilterSchema.extend({
  cursor: z.string().max(64).optional().describe('nextCursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;

export const auditExportQuerySchema = auditFilterSchema.extend({
  format: z.enum(['csv', 'jsonl']).default('csv'),
});
export type AuditExportQuery = z.infer<typeof auditExportQuerySchema>;

export const auditVerifyQuerySchema = z.strictObject({
  tenantId: z.string().max(64).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  mode: z
    .enum(['full', 'incremental'])
    .default('full')
    .describe('`incremental`: from each tenant’s newest checkpoint to its head (ignores from/to)'),
});
export type AuditVerifyQuery = z.infer<typeof auditVerifyQuerySchema>;

/** `GET /v1/audit/evidence`: one tenant (a tenant's own auditor may leave it out), a time range. */
export const auditEvidenceQuerySchema = z.strictObject({
  tenantId: z.string().max(64).optional().describe('Required for auditors of every tenant'),
  from: z.iso.datetime({ offset: true }).optional().describe('ISO-8601, inclusive'),
  to: z.iso.datetime({ offset: true }).optional().describe('ISO-8601, inclusive'),
});
export type AuditEvidenceQuery = z.infer<typeof auditEvidenceQuerySchema>;

/**
 * A keyset cursor: the id of the last row of a page. Pages run newest first (descending id), so
 * rows added meanwhile land before the first page and never shift later ones.
 */
export function encodeCursor(id: string): string {
  return Buffer.from(`e:${id}`).toString('base64url');
}

export function decodeCursor(cursor: string): string | undefined {
  const text = Buffer.from(cursor, 'base64url').toString();
  return /^e:\d+$/.test(text) ? text.slice(2) : undefined;
}
