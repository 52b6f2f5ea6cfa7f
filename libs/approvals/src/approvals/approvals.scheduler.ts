import { Inject, Injectable, Logger } from '@nestjs/common';
import { PeriodicSweep } from '@toolgate/database';
import { APPROVALS_OPTIONS, type ApprovalsOptions } from '../approvals.options.js';
import { CallRecords } from '@toolgate/calls';
import { ApprovalService } from './approval.service.js';
import { ApprovedCallRunner } from './approved-call.runner.js';

/**
 * Background duties of every gateway: expire approvals nobody decided, and run approved calls
 * whose approver's gateway went away before running them (queued longer than `orphanAfterMs`; the
 * claim keeps it to one run).
 */
@Injectable()
export class ApprovalsScheduler extends PeriodicSweep {
  constructor(
    private readonly approvals: ApprovalService,
    private readonly calls: CallRecords,
    private readonly runner: ApprovedCallRunner,
    @Inject(APPROVALS_OPTIONS) private readonly options: ApprovalsOptions,
  ) {
    super(options.pollMs, new Logger('Approvals'), 'background pass failed');
  }

  protected async sweep(): Promise<void> {
    await this.approvals.sweepExpired();
    for (const call of await this.calls.queuedBefore(new Date(Date.now() - this.options.orphanAfterMs))) {
      this.runner
        .run({ tenantId: call.tenantId, callId: call.callId })
        .catch((err: Error) => this.logger.warn(`orphaned call ${call.callId}: ${err.message}`));
    }
  }
}
