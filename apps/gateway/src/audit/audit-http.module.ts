import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller.js';

/** The compliance audience: the audit trail over REST. */
@Module({ controllers: [AuditController] })
export class AuditHttpModule {}
