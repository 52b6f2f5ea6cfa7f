import { ConfigurableModuleBuilder, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APPROVALS_OPTIONS, type ApprovalsOptions } from './approvals.options.js';
import { ApprovalDecisions } from './approvals/approval-decisions.js';
import { ApprovalEvents } from './approvals/approval-events.js';
import { ApprovalGate } from './approvals/approval-gate.hook.js';
import { ApprovalReader } from './approvals/approval-reader.js';
import { ApprovalRepository } from './approvals/approval.repository.js';
import { ApprovalService } from './approvals/approval.service.js';
import { ApprovalsScheduler } from './approvals/approvals.scheduler.js';
import { ApprovedCallRunner } from './approvals/approved-call.runner.js';
import { ApprovalDecisionEntity } from './entities/approval-decision.entity.js';
import { ApprovalEntity } from './entities/approval.entity.js';
import { ApprovalGrantEntity } from './entities/approval-grant.entity.js';
import { ApprovalWakeups } from './wakeups/approval-wakeups.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<ApprovalsOptions>({
  optionsInjectionToken: APPROVALS_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/**
 * Human approval: risky calls wait for a person (gate, decisions, grants, wake-ups) and, approved,
 * run exactly once. The calls they park are the calls lib's records (`CallsModule`).
 * `ApprovalsModule.forRoot(options)` (or `forRootAsync`).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ApprovalEntity, ApprovalDecisionEntity, ApprovalGrantEntity])],
  providers: [
    ApprovalRepository,
    ApprovalReader,
    ApprovalGate,
    ApprovalDecisions,
    ApprovalEvents,
    ApprovedCallRunner,
    ApprovalWakeups,
    ApprovalService,
    ApprovalsScheduler,
  ],
  // The options too: the rules' check endpoint says how long an approval it predicts would wait.
  exports: [ApprovalService, ApprovalDecisions, ApprovalEvents, ApprovalReader, APPROVALS_OPTIONS],
})
export class ApprovalsModule extends ConfigurableModuleClass {}
