import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller.js';
import { RetentionController } from './retention.controller.js';

/** The compliance audience: the audit trail over REST. */
@Module({ controllers: [AuditController, RetentionController] })
export class AuditHttpModule {}
