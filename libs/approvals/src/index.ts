// Every export is public API of @toolgate/approvals: the gate, decisions, grants and wake-ups.

export { APPROVALS_OPTIONS, DEFAULT_APPROVALS_OPTIONS } from './approvals.options.js';
export type { ApprovalsOptions } from './approvals.options.js';
export { ApprovalsModule } from './approvals.module.js';
export { APPROVALS_MIGRATIONS } from './migrations/index.js';
export { ApprovalReader } from './approvals/approval-reader.js';
export { ApprovalDecisions } from './approvals/approval-decisions.js';
export type { ApprovalDecision } from './approvals/approval-decisions.js';
export { ApprovalEvents } from './approvals/approval-events.js';
export { ApprovalService } from './approvals/approval.service.js';
export type { ApprovalView } from './approvals/approval-view.js';
export { tenantApprovalSettingsSchema } from './approvals/tenant-approval-settings.js';
