import { ConfigurableModuleBuilder, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CALL_RECORD_SINK } from '@toolgate/audit';
import { APPROVALS_OPTIONS, type ApprovalsOptions } from './approvals.options.js';
import { ApprovalDecisions } from './approvals/approval-decisions.js';
import { ApprovalEvents } from './approvals/approval-events.js';
import { ApprovalGate } from './approvals/approval-gate.hook.js';
import { ApprovalRepository } from './approvals/approval.repository.js';
import { ApprovalService } from './approvals/approval.service.js';
import { ApprovalsScheduler } from './approvals/approvals.scheduler.js';
import { ApprovedCallRunner } from './approvals/approved-call.runner.js';
import { CallReaderService } from './calls/call-reader.js';
import { CallRecordRepository } from './calls/call-record.repository.js';
import { CallRecordsSink } from './calls/call-records.sink.js';
import { ApprovalDecisionEntity } from './entities/approval-decision.entity.js';
import { ApprovalEntity } from './entities/approval.entity.js';
import { ApprovalGrantEntity } from './entities/approval-grant.entity.js';
import { IdempotencyRecordEntity } from './entities/idempotency-record.entity.js';
import { ToolCallEntity } from './entities/tool-call.entity.js';
import { IdempotencyRepository } from './idempotency/idempotency.repository.js';
import { IdempotencyService } from './idempotency/idempotency.service.js';
import { ApprovalWakeups } from './wakeups/approval-wakeups.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<ApprovalsOptions>({
  optionsInjectionToken: APPROVALS_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/**
 * Human approval, call records and idempotency: risky calls wait for a person and run exactly once.
 * `ApprovalsModule.forRoot(options)` (or `forRootAsync`).
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([
      ToolCallEntity,
      ApprovalEntity,
      ApprovalDecisionEntity,
      ApprovalGrantEntity,
      IdempotencyRecordEntity,
    ]),
  ],
  providers: [
    CallRecordRepository,
    CallReaderService,
    { provide: CALL_RECORD_SINK, useClass: CallRecordsSink },
    ApprovalRepository,
    ApprovalGate,
    ApprovalDecisions,
    ApprovalEvents,
    ApprovedCallRunner,
    ApprovalWakeups,
    ApprovalService,
    ApprovalsScheduler,
    IdempotencyRepository,
    IdempotencyService,
  ],
  exports: [
    CALL_RECORD_SINK,
    CallRecordRepository,
    CallReaderService,
    ApprovalService,
    ApprovalDecisions,
    ApprovalEvents,
    ApprovalRepository,
    IdempotencyService,
  ],
})
export class ApprovalsModule extends ConfigurableModuleClass {}
