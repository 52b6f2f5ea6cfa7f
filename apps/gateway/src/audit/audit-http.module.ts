import { Module } from '@nestjs/common';
import { AuditSinksController } from './audit-sinks.controller.js';
import { AdminActs } from '../http/admin-acts.js';
import { AuditController } from './audit.controller.js';
import { RetentionController } from './retention.controller.js';

/** The compliance audience: the audit trail over REST. */
@Module({ controllers: [AuditController, AuditSinksController, RetentionController], providers: [AdminActs] })
export class AuditHttpModule {}
