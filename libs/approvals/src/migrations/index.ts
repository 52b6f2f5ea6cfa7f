import { ApprovalsDecidedAt1765500200000 } from './1765500200000-approvals-decided-at.js';
import { ApprovalsApproverGroup1765700260000 } from './1765700260000-approvals-approver-group.js';

/** The approvals lib's own migrations, in order (those before ADR 031 live in the calls lib's list). */
export const APPROVALS_MIGRATIONS = [ApprovalsDecidedAt1765500200000, ApprovalsApproverGroup1765700260000];
