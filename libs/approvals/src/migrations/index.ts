import { ApprovalsDecidedAt1765500200000 } from './1765500200000-approvals-decided-at.js';

/** The approvals lib's own migrations, in order (those before ADR 031 live in the calls lib's list). */
export const APPROVALS_MIGRATIONS = [ApprovalsDecidedAt1765500200000];
