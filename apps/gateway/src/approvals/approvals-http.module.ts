import { Module } from '@nestjs/common';
import { ApprovalsController, CallsController } from './approvals.controller.js';

/** The approver audience (inbox, decisions) and call lookups. */
@Module({ controllers: [ApprovalsController, CallsController] })
export class ApprovalsHttpModule {}
