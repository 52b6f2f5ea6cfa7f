import { z } from 'zod';

/** A tenant file's `approvals:` section: the tenant's approval policy beyond the tools' own (ADR 031). */
export const tenantApprovalSettingsSchema = z.strictObject({
  /** L3 calls need two distinct approvers. */
  twoApproversForL3: z.boolean().default(false),
  /**
   * Approver groups a tenant rule's `require_approval` may name (issue 26): members are API key
   * ids or person ids (a key's owner counts as the person); only they decide such an approval.
   */
  groups: z
    .record(
      z
        .string()
        .max(64)
        .regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, 'lower-case letters and digits, single - or _ between'),
      z.array(z.string().min(1).max(128)).min(1).max(200),
    )
    .optional(),
});
export type TenantApprovalSettings = z.infer<typeof tenantApprovalSettingsSchema>;
