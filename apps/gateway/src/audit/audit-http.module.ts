import { Module } from '@nestjs/common';
import { AuditSinksController } from './audit-sinks.controller.js';
import { AuditController } from './audit.controller.js';

/** The compliance audience: the audit trail over REST. */
@Module({ controllers: [AuditController, AuditSinksController] })
export class AuditHttpModule {}
