import { asyncOptionsProvider, type AsyncModuleOptions } from '@toolgate/toolkit';
import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditTrail } from './audit-trail.js';
import { AUDIT_OPTIONS, type AuditOptions } from './audit.options.js';
import { AuditChainRepository } from './chain/audit-chain.repository.js';
import { AuditWriter } from './chain/audit-writer.js';
import { ChainVerifier } from './chain/chain-verifier.js';
import { CheckpointRepository } from './chain/checkpoint.repository.js';
import { CheckpointService } from './chain/checkpoint.service.js';
import { AuditCheckpointEntity } from './entities/audit-checkpoint.entity.js';
import { AuditEventEntity } from './entities/audit-event.entity.js';
import { AuditOpenCallEntity } from './entities/audit-open-call.entity.js';
import { AuditHook } from './hooks/audit.hook.js';
import { AuditEventsRepository } from './query/audit-events.repository.js';
import { AuditQueries } from './query/audit-queries.js';
import { AuditReconciler } from './reconcile/audit-reconciler.js';
import { TenantRedaction } from './redaction/tenant-redaction.js';

/** The audit trail: pipeline hook, group-commit writer, checkpoints, verification, queries. */
@Module({})
export class AuditModule {
  static forRootAsync(options: AsyncModuleOptions<AuditOptions>): DynamicModule {
    return {
      module: AuditModule,
      global: true,
      imports: [
        TypeOrmModule.forFeature([AuditEventEntity, AuditCheckpointEntity, AuditOpenCallEntity]),
        ...(options.imports ?? []),
      ],
      providers: [
        asyncOptionsProvider(AUDIT_OPTIONS, options),
        AuditChainRepository,
        AuditWriter,
        AuditEventsRepository,
        AuditQueries,
        CheckpointRepository,
        ChainVerifier,
        CheckpointService,
        TenantRedaction,
        AuditHook,
        AuditTrail,
        AuditReconciler,
      ],
      exports: [
        AuditTrail,
        AuditWriter,
        AuditQueries,
        AuditEventsRepository,
        CheckpointService,
        AuditReconciler,
        TenantRedaction,
      ],
    };
  }
}
