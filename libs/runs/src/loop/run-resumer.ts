import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  CallRecordRepository,
  type ApprovalDecision,
  type ApprovalDecisionListener,
} from '@toolgate/approvals';
import { runPeriodically } from '@toolgate/database';
import type { AgentRunEntity } from '../entities/agent-run.entity.js';
import { RUNS_OPTIONS, type RunsOptions } from '../runs.options.js';
import { RunRepository, type RunRef } from '../store/run.repository.js';
import { RunDriver } from './run-driver.js';
import { delegateSettled } from './sub-agents.js';

/** Call statuses that end a parked call. */
const DECIDED = new Set(['succeeded', 'failed', 'denied', 'expired', 'interrupted']);

/**
 * Gets runs going again on any gateway: a parked run once every pending call of its step is
 * decided (at once when the decision is taken on this gateway, else at the next poll), and a
 * running run whose gateway stopped renewing its lease (taken over: finished calls are not re-run,
 * an interrupted one is, with the same call id).
 */
@Injectable()
export class RunResumer implements ApprovalDecisionListener, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RunResumer.name);
  private stop?: () => void;

  constructor(
    private readonly runs: RunRepository,
    private readonly driver: RunDriver,
    private readonly callRecords: CallRecordRepository,
    @Inject(RUNS_OPTIONS) private readonly options: RunsOptions,
  ) {
    // A sub-agent's run that ended here may be what its parked parent waits for.
    driver.onEnded((run) => {
      if (run.parentRunId)
        void this.resumeIfDecided({ tenantId: run.tenantId, runId: run.parentRunId }).catch((err: Error) =>
          this.logger.warn(`resuming ${run.parentRunId}: ${err.message}`),
        );
    });
  }

  onApplicationBootstrap(): void {
    this.stop = runPeriodically(
      this.options.pollMs,
      () => this.poll(),
      (err) => this.logger.warn(`run poller: ${err.message}`),
    );
  }

  onApplicationShutdown(): void {
    this.stop?.();
  }

  /** A decision on this gateway: the run of the call (its id is `${runId}.${step}.${index}`) may go on. */
  approvalDecided(decision: ApprovalDecision): void {
    const runId = decision.callId.split('.')[0]!;
    if (!runId.startsWith('run_') || runId === decision.callId) return;
    void this.resumeIfDecided({ tenantId: decision.tenantId, runId }).catch((err: Error) =>
      this.logger.warn(`resuming ${runId}: ${err.message}`),
    );
  }

  /** One pass of the floor: stale leases, then parked runs whose approvals are all decided. */
  async poll(): Promise<void> {
    for (const run of await this.runs.stale()) {
      // A run this gateway still drives renews its own lease (or stops when it cannot).
      if (this.driver.isDriving(run.runId)) continue;
      if (await this.runs.acquire(run, this.driver.owner, this.options.leaseMs, 'running')) {
        this.logger.log(`taking over run ${run.runId} (lease of ${run.leaseOwner} ran out)`);
        void this.driver.drive((await this.runs.find(run))!);
      }
    }
    for (const run of await this.runs.parked()) await this.resumeIfDecided(run, run);
  }

  /** Resumes a parked run when every pending call of its step is decided (delegate calls: their child ended); false otherwise. */
  async resumeIfDecided(ref: RunRef, known?: AgentRunEntity): Promise<boolean> {
    const run = known ?? (await this.runs.find(ref));
    if (run?.status !== 'awaiting_approval') return false;
    const pending = (await this.runs.calls(ref)).filter((c) => c.status === 'pending_approval');
    for (const c of pending) {
      // A delegate call is decided when its child run has ended.
      const settled = await delegateSettled(this.runs, ref.tenantId, c);
      if (settled === false) return false;
      if (settled) continue;
      const record = await this.callRecords.find({ tenantId: ref.tenantId, callId: c.callId });
      if (!record || !DECIDED.has(record.status)) return false;
    }
    // Time parked does not count against the deadline: it moves by as long as the run waited.
    const deadlineAt = new Date(run.deadlineAt.getTime() + Math.max(0, Date.now() - run.updatedAt.getTime()));
    if (
      !(await this.runs.acquire(
        ref,
        this.driver.owner,
        this.options.leaseMs,
        'awaiting_approval',
        deadlineAt,
      ))
    )
      return false;
    void this.driver.drive((await this.runs.find(ref))!);
    return true;
  }
}
