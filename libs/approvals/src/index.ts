// Public surface of the approvals lib: approvals, call records, idempotency.

export { DEFAULT_APPROVALS_OPTIONS } from './approvals.options.js';
export type { ApprovalsOptions } from './approvals.options.js';
export { ApprovalsModule } from './approvals.module.js';
export { actionDigest, ApprovalGate } from './approvals/approval-gate.hook.js';
export { ApprovalRepository } from './approvals/approval.repository.js';
export { ApprovalDecisions } from './approvals/approval-decisions.js';
export type { ApprovalDecision } from './approvals/approval-decisions.js';
export { ApprovalEvents } from './approvals/approval-events.js';
export type { ApprovalRequested } from './approvals/approval-events.js';
export { ApprovalService } from './approvals/approval.service.js';
export type { ApprovalView } from './approvals/approval-view.js';
export { ApprovalsScheduler } from './approvals/approvals.scheduler.js';
export { CallReaderService } from './calls/call-reader.js';
export type { CallReader } from './calls/call-reader.js';
export { CallRecordRepository } from './calls/call-record.repository.js';
export { toCallView } from './calls/call-view.js';
export type { CallView } from './calls/call-view.js';
export type { ApprovalStatus } from './entities/approval.entity.js';
export type { CallStatus } from './entities/tool-call.entity.js';
export { IdempotencyService, requestDigest } from './idempotency/idempotency.service.js';
export type { IdempotentAnswer } from './idempotency/idempotency.service.js';

export { APPROVALS_MIGRATIONS } from './migrations/index.js';
