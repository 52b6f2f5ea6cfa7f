// Public surface of the approvals lib: the gate, decisions, grants and wake-ups.

export { APPROVALS_OPTIONS, DEFAULT_APPROVALS_OPTIONS } from './approvals.options.js';
export type { ApprovalsOptions } from './approvals.options.js';
export { ApprovalsModule } from './approvals.module.js';
export { APPROVALS_MIGRATIONS } from './migrations/index.js';
export { actionDigest, ApprovalGate } from './approvals/approval-gate.hook.js';
export { ApprovalReader } from './approvals/approval-reader.js';
export { ApprovalDecisions } from './approvals/approval-decisions.js';
export type { ApprovalDecision } from './approvals/approval-decisions.js';
export { ApprovalEvents } from './approvals/approval-events.js';
export type { ApprovalRequested } from './approvals/approval-events.js';
export { ApprovalService } from './approvals/approval.service.js';
export type { ApprovalView } from './approvals/approval-view.js';
export { ApprovalsScheduler } from './approvals/approvals.scheduler.js';
export { tenantApprovalSettingsSchema } from './approvals/tenant-approval-settings.js';
export type { ApprovalStatus } from './entities/approval.entity.js';
