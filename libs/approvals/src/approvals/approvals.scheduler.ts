import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { APPROVALS_OPTIONS, type ApprovalsOptions } from '../approvals.options.js';
import { CallRecordRepository } from '../calls/call-record.repository.js';
import { ApprovalService } from './approval.service.js';
import { ApprovedCallRunner } from './approved-call.runner.js';

/** Approved calls left unrun this long are picked up by any gateway. */
const ORPHAN_AFTER_MS = 5_000;

/**
 * Background duties of every gateway: expire approvals nobody decided, and run approved calls
 * whose approver's gateway went away before running them (the claim keeps it to one run).
 */
@Injectable()
export class ApprovalsScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Approvals');
  private timer?: NodeJS.Timeout;
  private busy = false;

  constructor(
    private readonly approvals: ApprovalService,
    private readonly calls: CallRecordRepository,
    private readonly runner: ApprovedCallRunner,
    @Inject(APPROVALS_OPTIONS) private readonly options: ApprovalsOptions,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.options.pollMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      await this.approvals.sweepExpired();
      for (const call of await this.calls.queuedBefore(new Date(Date.now() - ORPHAN_AFTER_MS))) {
        void this.runner.run(call.callId);
      }
    } catch (err) {
      this.logger.warn(`background pass failed: ${(err as Error).message}`);
    } finally {
      this.busy = false;
    }
  }
}
