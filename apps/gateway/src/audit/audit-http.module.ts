import { Module } from '@nestjs/common';
import { AdminActs } from '../http/admin-acts.js';
import { AuditController } from './audit.controller.js';

/** The compliance audience: the audit trail over REST. */
@Module({ controllers: [AuditController], providers: [AdminActs] })
export class AuditHttpModule {}
