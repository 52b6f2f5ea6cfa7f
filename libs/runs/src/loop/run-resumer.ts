import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApprovalDecisions, type ApprovalDecision } from '@toolgate/approvals';
import { CallRecords } from '@toolgate/calls';
import { PeriodicSweep } from '@toolgate/database';
import type { AgentRunEntity } from '../entities/agent-run.entity.js';
import { RUNS_OPTIONS, type RunsOptions } from '../runs.options.js';
import { RunRepository, type RunRef } from '../store/run.repository.js';
import { RunDriver } from './run-driver.js';
import { attemptCallId, FINAL_CALL_STATUSES } from './run-ids.js';
import { delegateSettled } from './sub-agents.js';

/** A tenant-keyed id (run ids and call ids are unique per tenant). */
const keyOf = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;

/**
 * Gets runs going again on any gateway: a parked run once every pending call of its step is
 * decided (at once when the decision is taken on this gateway, else at the next poll), and a
 * running run whose gateway stopped renewing its lease (taken over: finished calls are not re-run,
 * an interrupted one is, under the same idempotency key).
 */
@Injectable()
export class RunResumer extends PeriodicSweep {
  constructor(
    private readonly runs: RunRepository,
    private readonly driver: RunDriver,
    private readonly callRecords: CallRecords,
    decisions: ApprovalDecisions,
    @Inject(RUNS_OPTIONS) options: RunsOptions,
  ) {
    super(options.pollMs, new Logger(RunResumer.name), 'run poller');
    decisions.subscribe((decision) => this.approvalDecided(decision));
    // A sub-agent's run that ended here may be what its parked parent waits for.
    driver.onEnded((run) => {
      if (run.parentRunId) this.resumeSoon({ tenantId: run.tenantId, runId: run.parentRunId });
    });
  }

  /** A decision on this gateway: the run of the call (its id is `${runId}.${step}.${index}`) may go on. */
  approvalDecided(decision: ApprovalDecision): void {
    const runId = decision.callId.split('.')[0]!;
    if (!runId.startsWith('run_') || runId === decision.callId) return;
    this.resumeSoon({ tenantId: decision.tenantId, runId });
  }

  /** Resumes the run if it is parked and decided, without making the caller wait. */
  private resumeSoon(ref: RunRef): void {
    void this.runs
      .find(ref)
      .then((run) => (run ? this.resumeDecided([run]) : undefined))
      .catch((err: Error) => this.logger.warn(`resuming ${ref.runId}: ${err.message}`));
  }

  /** One pass of the floor: stale leases, then parked runs whose approvals are all decided. */
  protected async sweep(): Promise<void> {
    for (const run of await this.runs.stale()) {
      // A run this gateway still drives renews its own lease (or stops when it cannot).
      if (this.driver.isDriving(run.runId)) continue;
      if (await this.runs.acquire(run, this.driver.owner, this.driver.leaseMs, 'running')) {
        this.logger.log(`taking over run ${run.runId} (lease of ${run.leaseOwner} ran out)`);
        void this.driver.drive((await this.runs.find(run))!);
      }
    }
    await this.resumeDecided(await this.runs.parked());
  }

  /**
   * Resumes those of `candidates` that are parked and whose pending calls are all decided (a
   * delegation: its sub-agent's run has ended). Two queries for all of them (their pending calls,
   * then those calls' records), not two per run; one more per delegation.
   */
  private async resumeDecided(candidates: readonly AgentRunEntity[]): Promise<void> {
    const parked = candidates.filter((r) => r.status === 'awaiting_approval');
    const pending = await this.runs.pendingCalls(parked);
    const approvals: typeof pending = [];
    const waiting = new Set<string>();
    for (const c of pending) {
      const settled = await delegateSettled(this.runs, c.tenantId, c);
      if (settled === null) approvals.push(c);
      else if (!settled) waiting.add(keyOf(c.tenantId, c.runId));
    }
    const records = await this.callRecords.findMany(
      approvals.map((c) => ({ tenantId: c.tenantId, callId: attemptCallId(c) })),
    );
    const decided = new Set(
      records.filter((r) => FINAL_CALL_STATUSES.has(r.status)).map((r) => keyOf(r.tenantId, r.callId)),
    );
    for (const c of approvals)
      if (!decided.has(keyOf(c.tenantId, attemptCallId(c)))) waiting.add(keyOf(c.tenantId, c.runId));
    for (const run of parked) if (!waiting.has(keyOf(run.tenantId, run.runId))) await this.resume(run);
  }

  /** Takes the lease of a decided parked run (one gateway wins) and drives it. */
  private async resume(run: AgentRunEntity): Promise<void> {
    // Time parked does not count against the deadline: it moves by as long as the run waited.
    const deadlineAt = new Date(run.deadlineAt.getTime() + Math.max(0, Date.now() - run.updatedAt.getTime()));
    const ref: RunRef = { tenantId: run.tenantId, runId: run.runId };
    if (
      !(await this.runs.acquire(ref, this.driver.owner, this.driver.leaseMs, 'awaiting_approval', deadlineAt))
    )
      return;
    void this.driver.drive((await this.runs.find(ref))!);
  }
}
