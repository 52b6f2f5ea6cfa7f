import { ConfigurableModuleBuilder, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditAlarms } from './alarms/audit-alarms.js';
import { ARCHIVE_STORE } from './archive/archive-store.js';
import { CheckpointArchive } from './archive/checkpoint-archive.js';
import { DirectoryArchiveStore } from './archive/directory-archive-store.js';
import { CALL_RESULT_REDACTION } from '@toolgate/calls';
import { AuditTrail } from './audit-trail.js';
import { AccessDenials } from './denials/access-denials.js';
import { AUDIT_OPTIONS, type AuditOptions } from './audit.options.js';
import { AuditCallQueries } from './calls/audit-call-queries.js';
import { AuditCallsRepository } from './calls/audit-calls.repository.js';
import { CallProjector } from './calls/call-projector.js';
import { AuditChainRepository } from './chain/audit-chain.repository.js';
import { AuditWriter } from './chain/audit-writer.js';
import { ChainVerifier } from './chain/chain-verifier.js';
import { CheckpointRepository } from './chain/checkpoint.repository.js';
import { CheckpointService } from './chain/checkpoint.service.js';
import { AuditCheckpointEntity } from './entities/audit-checkpoint.entity.js';
import { AuditEventEntity } from './entities/audit-event.entity.js';
import { AuditOpenCallEntity } from './entities/audit-open-call.entity.js';
import { EvidenceBuilder } from './evidence/evidence-builder.js';
import { AuditHook } from './hooks/audit.hook.js';
import { L0AccessSwitch } from './hooks/l0-access-switch.js';
import { AuditEventsRepository } from './query/audit-events.repository.js';
import { AuditQueries } from './query/audit-queries.js';
import { VerifyJobs } from './query/verify-jobs.js';
import { VerifyJobsRepository } from './query/verify-jobs.repository.js';
import { AuditReconciler } from './reconcile/audit-reconciler.js';
import { TenantRedaction } from './redaction/tenant-redaction.js';
import { ArchiveWriter } from './retention/archive-writer.js';
import { PurgeBoundaries } from './retention/purge-boundaries.js';
import { Purger } from './retention/purger.js';
import { RetentionJob } from './retention/retention-job.js';
import { RetentionPolicy } from './retention/retention-policy.js';
import { RetentionRepository } from './retention/retention.repository.js';
import { S3ArchiveStore } from './retention/s3-archive-store.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<AuditOptions>({
  optionsInjectionToken: AUDIT_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/**
 * The audit trail: pipeline hook, group-commit writer, checkpoints, verification, queries.
 * `AuditModule.forRoot(options)` (or `forRootAsync`).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AuditEventEntity, AuditCheckpointEntity, AuditOpenCallEntity])],
  providers: [
    {
      provide: ARCHIVE_STORE,
      // A bucket when one is configured (ADR 037), else the directory (ADR 030).
      useFactory: (o: AuditOptions) =>
        o.archiveS3 ? new S3ArchiveStore(o.archiveS3) : new DirectoryArchiveStore(o.archiveDir),
      inject: [AUDIT_OPTIONS],
    },
    CheckpointArchive,
    AuditAlarms,
    AuditChainRepository,
    AuditWriter,
    AuditEventsRepository,
    AuditQueries,
    CheckpointRepository,
    ChainVerifier,
    CheckpointService,
    TenantRedaction,
    // The calls lib's reader shows a call's result to other readers redacted as the trail stores it.
    { provide: CALL_RESULT_REDACTION, useExisting: TenantRedaction },
    AuditHook,
    L0AccessSwitch,
    AuditTrail,
    AuditReconciler,
    EvidenceBuilder,
    VerifyJobs,
    VerifyJobsRepository,
    AuditCallsRepository,
    CallProjector,
    AuditCallQueries,
    AccessDenials,
    RetentionRepository,
    RetentionPolicy,
    PurgeBoundaries,
    ArchiveWriter,
    Purger,
    RetentionJob,
  ],
  exports: [
    RetentionPolicy,
    RetentionJob,
    AuditAlarms,
    VerifyJobs,
    AccessDenials,
    AuditCallQueries,
    CallProjector,
    AuditTrail,
    AuditWriter,
    AuditQueries,
    AuditEventsRepository,
    CheckpointService,
    CheckpointArchive,
    AuditReconciler,
    TenantRedaction,
    CALL_RESULT_REDACTION,
  ],
})
export class AuditModule extends ConfigurableModuleClass {}
