import { z } from 'zod';

/** A tenant file's `approvals:` section: the tenant's approval policy beyond the tools' own (ADR 031). */
export const tenantApprovalSettingsSchema = z.strictObject({
  /** L3 calls need two distinct approvers. */
  twoApproversForL3: z.boolean().default(false),
});
export type TenantApprovalSettings = z.infer<typeof tenantApprovalSettingsSchema>;
