import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { AuditTrail } from '@toolgate/audit';
import { InstanceRegistry } from '@toolgate/database';
import type { AgentRunEntity } from '../entities/agent-run.entity.js';
import { RunEvents } from '../events/run-events.js';
import { TenantAuditPolicy } from '@toolgate/tenancy';
import { RUNS_OPTIONS, type RunsOptions } from '../runs.options.js';
import { RunRepository, type RunRef } from '../store/run.repository.js';
import type { CreatedRun, DriveResult, FinishedRun } from './run-drive.js';
import { RunDrives } from './run-drives.js';
import { RunLoop } from './run-loop.js';
import { RunScrubber } from '../views/run-scrubber.js';
import { runSpanAttributes } from './run-step-trace.js';
import { inSpan, SpanName } from '@toolgate/telemetry';

/**
 * Runs the loop of runs this gateway holds the lease of: renews the lease while the loop works,
 * stops the loop (its AbortSignal, which reaches the running tool) when the lease is lost or the
 * run is cancelled, and records `run_finished` in the audit trail. One drive per run per gateway.
 */
@Injectable()
export class RunDriver implements RunDrives, OnApplicationShutdown {
  private readonly logger = new Logger(RunDriver.name);
  private readonly active = new Map<string, { controller: AbortController; done: Promise<DriveResult> }>();
  private readonly endedListeners: ((run: AgentRunEntity) => void)[] = [];

  constructor(
    private readonly runs: RunRepository,
    private readonly loop: RunLoop,
    private readonly events: RunEvents,
    private readonly audit: AuditTrail,
    private readonly instances: InstanceRegistry,
    private readonly auditPolicy: TenantAuditPolicy,
    @Inject(RUNS_OPTIONS) private readonly options: RunsOptions,
    private readonly scrubber: RunScrubber,
  ) {}

  /** This gateway's lease owner name. */
  get owner(): string {
    return this.instances.instanceId;
  }

  /** How long a lease lasts without renewal. */
  get leaseMs(): number {
    return this.options.leaseMs;
  }

  /** Whether this gateway is driving the run now. */
  isDriving(runId: string): boolean {
    return this.active.has(runId);
  }

  /** The drive of a run under way on this gateway, if any. */
  current(runId: string): Promise<DriveResult> | undefined {
    return this.active.get(runId)?.done;
  }

  /**
   * Drives a run whose lease this gateway has just taken. Resolves when the drive ends; never
   * rejects (a failure is logged; the lease runs out and the poller takes the run over).
   * `created` when the run was created just now (nothing of it to read back).
   */
  drive(run: AgentRunEntity, created?: CreatedRun): Promise<DriveResult> {
    const running = this.active.get(run.runId);
    if (running) return running.done;
    const controller = new AbortController();
    const ref = { tenantId: run.tenantId, runId: run.runId };
    const renew = setInterval(
      () => {
        void this.runs.renew(ref, this.owner, this.options.leaseMs).then(
          (held) => held || controller.abort(new Error('the run is no longer this gateway’s')),
          (err: Error) => this.logger.warn(`renewing the lease of ${run.runId}: ${err.message}`),
        );
      },
      Math.max(50, Math.floor(this.options.leaseMs / 3)),
    );
    renew.unref();
    // One `toolgate.run` span per drive: a run resumed after an approval is a second drive.
    const done = inSpan(SpanName.RUN, { attributes: runSpanAttributes(run) }, () =>
      this.loop.drive(run, this.owner, controller.signal, created),
    )
      .then(async (result) => {
        if (result.outcome === 'finished') await this.ended(ref, result.finished);
        return result;
      })
      .catch((err: Error): DriveResult => {
        this.logger.error(`run ${run.runId} stopped: ${err.message}`);
        return { outcome: 'stopped', finished: null };
      })
      .finally(() => {
        clearInterval(renew);
        this.active.delete(run.runId);
        this.events.release(run.runId);
      });
    this.active.set(run.runId, { controller, done });
    return done;
  }

  /** Stops the drive of a run on this gateway (cancel): the running tool's AbortSignal fires. */
  abort(runId: string, reason: string): void {
    this.active.get(runId)?.controller.abort(new Error(reason));
  }

  /** Tells `listener` of every run that ends (completed, failed or cancelled) on this gateway. */
  onEnded(listener: (run: AgentRunEntity) => void): void {
    this.endedListeners.push(listener);
  }

  /**
   * A run ended here (its drive finished, or it was cancelled): audited, and its listeners told.
   * `finished`: the run as its drive stored it (not read back).
   */
  async ended(ref: RunRef, finished?: FinishedRun | null): Promise<void> {
    const run = await this.recordFinished(ref, finished ?? undefined);
    if (!run) return;
    // Nothing of the run is needed raw any more (ADR 036): its rows (and, at the top of a tree,
    // its sub-agents' runs) become their redacted forms. The answer of the request that waited for
    // the run is built from what the drive holds.
    await this.scrubber.scrubEnded(run).catch((err: Error) => {
      this.logger.error(`run ${ref.runId}: its stored data could not be redacted: ${err.message}`);
    });
    for (const listener of this.endedListeners) listener(run);
  }

  /** The audit event of a run that ended (completed or failed); cancelled runs are recorded by the cancel. */
  async recordFinished(ref: RunRef, finished?: FinishedRun): Promise<AgentRunEntity | null> {
    const run = finished?.run ?? (await this.runs.find(ref));
    if (!run) return null;
    await this.audit.record(
      [
        {
          event: 'run_finished',
          tenantId: run.tenantId,
          actor: { type: run.principal.principalType, id: run.principal.principalId },
          agentType: run.agentType,
          sessionId: run.sessionId,
          ...((await this.auditPolicy.recordsRunText(run.tenantId))
            ? { input: await this.runText(run, finished?.steps) }
            : {}),
          details: {
            runId: run.runId,
            ...(run.parentRunId ? { parentRunId: run.parentRunId } : {}),
            model: run.model,
            steps: run.steps,
            // Not `inputTokens`...: key names with "token" are sealed by the trail's redaction as secrets.
            usage: {
              input: run.inputTokens,
              output: run.outputTokens,
              total: run.inputTokens + run.outputTokens,
            },
            outcome: run.status,
            ...(run.error ? { code: run.error.code } : {}),
          },
        },
      ],
      `${run.runId}:finished`,
    );
    return run;
  }

  /** What the model said in a run: each turn's text and the answer (recorded only when the tenant asks). */
  private async runText(run: AgentRunEntity, known?: FinishedRun['steps']) {
    const steps = known ?? (await this.runs.steps({ tenantId: run.tenantId, runId: run.runId }));
    return { modelText: steps.flatMap((s) => (s.text ? [s.text] : [])), answer: run.output };
  }

  async onApplicationShutdown(): Promise<void> {
    for (const { controller } of this.active.values()) controller.abort(new Error('the gateway is stopping'));
    await Promise.all([...this.active.values()].map((a) => a.done));
  }
}
