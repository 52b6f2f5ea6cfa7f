import { Injectable } from '@nestjs/common';
import { errorEnvelope, ErrorCode, type ErrorEnvelope } from '@toolgate/toolkit';
import { AgentRunEntity } from '../entities/agent-run.entity.js';
import { RunRepository, type RunEnding } from '../store/run.repository.js';
import { usageOf, type Drive, type DriveOutcome, type Ending } from './run-drive.js';

/**
 * How a drive ends a run: completed, failed, parked on approval, or stopped (the lease is no
 * longer ours). Every status is written naming the lease owner; a write the lease refuses is
 * 'stopped'.
 */
@Injectable()
export class RunEndings {
  constructor(private readonly runs: RunRepository) {}

  /** The drive's signal fired: stopped (cancel, lost lease), or failed past its deadline. */
  interrupted(d: Drive): Promise<DriveOutcome> | DriveOutcome {
    if (d.stop.aborted) return 'stopped';
    return this.fail(
      d,
      errorEnvelope(ErrorCode.DEADLINE_EXCEEDED, d.locale, { deadlineMs: d.settings.deadlineMs }),
    );
  }

  async park(d: Drive): Promise<DriveOutcome> {
    return (await this.runs.park(d.ref, d.owner)) ? 'parked' : 'stopped';
  }

  complete(d: Drive, output: string): Promise<DriveOutcome> {
    return this.end(d, { status: 'completed', output, error: null, at: new Date() });
  }

  fail(d: Ending, error: ErrorEnvelope): Promise<DriveOutcome> {
    const at = new Date();
    return this.end(d, {
      status: 'failed',
      output: null,
      error: error as unknown as Record<string, unknown>,
      at,
    });
  }

  /** Announces the run's end; a drive that knows all of the run keeps it as stored, for its answer. */
  finished(d: Ending, ending: RunEnding): void {
    const usage = d.usage ?? { inputTokens: d.run.inputTokens, outputTokens: d.run.outputTokens };
    const steps = d.steps?.length ?? d.run.steps;
    d.emit('run_finished', {
      status: ending.status,
      output: ending.output,
      error: ending.error,
      usage: usageOf(usage),
      steps,
    });
    if (!d.steps || !d.calls) return;
    const run = Object.assign(new AgentRunEntity(), d.run, {
      status: ending.status,
      output: ending.output,
      error: ending.error,
      steps,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      leaseOwner: null,
      leaseUntil: null,
      updatedAt: ending.at,
      finishedAt: ending.at,
    });
    d.finished = { run, steps: d.steps, calls: d.calls };
  }

  private async end(d: Ending, ending: RunEnding): Promise<DriveOutcome> {
    const settled = d.settled ?? null;
    if (!(await this.runs.finish(d.ref, d.owner, ending, settled))) return 'stopped';
    if (settled) d.settled = null;
    this.finished(d, ending);
    return 'finished';
  }
}
