import { Injectable } from '@nestjs/common';
import { PrincipalStanding } from '@toolgate/auth';
import { CallRecords } from '@toolgate/calls';
import type { Envelope } from '@toolgate/toolkit';
import type { RunStepEntity } from '../entities/run-step.entity.js';
import type { RunToolCallEntity } from '../entities/run-tool-call.entity.js';
import { RunRepository } from '../store/run.repository.js';
import { DriveStopped, standingLost, type Drive } from './run-drive.js';
import { attemptCallId, FINAL_CALL_STATUSES } from './run-ids.js';
import { RunCalls } from './run-calls.js';
import { delegatedAgentType } from './sub-agent-rules.js';

/**
 * The calls of a stored model turn, brought to their outcomes: the ones without one run (RunCalls,
 * at most `maxParallelToolCalls` at a time), a call a takeover finds half-done takes its recorded
 * outcome or runs again as its next attempt, a parked call takes the outcome of its decided
 * approval (or of its child run). Then whether the step's outcome ends the run (endsTurn).
 */
@Injectable()
export class StepCalls {
  constructor(
    private readonly runs: RunRepository,
    private readonly callRecords: CallRecords,
    private readonly runner: RunCalls,
    private readonly standing: PrincipalStanding,
  ) {}

  /**
   * Brings every call of a step to an outcome: calls without one run (at most
   * `maxParallelToolCalls` at a time); parked calls take the outcome of their decided approval.
   * 'parked' while any call still waits for a person.
   */
  async settle(d: Drive, step: RunStepEntity): Promise<'settled' | 'parked'> {
    const calls = d.calls.filter((c) => c.stepIndex === step.stepIndex);
    for (const c of calls.filter((x) => x.status === 'running' && !d.fresh.has(x.callId)))
      await this.adoptRecorded(d, c);
    const queue = calls.filter((c) => c.status === 'running');
    // Nothing runs for a principal that no longer holds: the calls fail without running, and the
    // run ends before its next model turn (loop).
    const lost = queue.length ? await standingLost(this.standing, d) : null;
    if (lost)
      for (const c of queue.splice(0))
        await this.runner.record(d, c, 'failed', { ...lost, callId: c.callId }, null);
    const workers = Array.from(
      { length: Math.min(d.settings.maxParallelToolCalls, queue.length) },
      async () => {
        for (let c = queue.shift(); c; c = queue.shift()) await this.runner.run(d, step, c);
      },
    );
    await Promise.all(workers);
    if (d.signal.aborted) throw new DriveStopped();

    let waiting = false;
    for (const c of calls.filter((x) => x.status === 'pending_approval')) {
      // A delegate call waits for its child run, not for an approval of its own.
      const delegatedTo = c.approvalId ? null : delegatedAgentType(c.tool);
      if (delegatedTo) {
        await this.runner.delegate(d, c, delegatedTo);
        if (d.signal.aborted) throw new DriveStopped();
        if (c.status === 'pending_approval') waiting = true;
        continue;
      }
      const record = await this.callRecords.find({ tenantId: d.ref.tenantId, callId: attemptCallId(c) });
      if (!record || !FINAL_CALL_STATUSES.has(record.status) || !record.envelope) {
        waiting = true;
        continue;
      }
      const envelope = record.envelope as Envelope;
      d.emit('approval_decided', {
        callId: c.callId,
        approvalId: c.approvalId,
        decision:
          record.status === 'denied' ? 'denied' : record.status === 'expired' ? 'expired' : 'approved',
      });
      await this.runner.record(
        d,
        c,
        record.status === 'succeeded' ? 'succeeded' : (record.status as never),
        envelope,
        null,
      );
    }
    return waiting ? 'parked' : 'settled';
  }

  /**
   * A call still `running` here may have got further before a takeover: an L1+ call has its own
   * record (`tool_calls`). Finished there → its outcome is taken, never run again; parked there →
   * the run waits for it. Only a call without a record, or one still running or interrupted, runs
   * again: the upstream sees the same idempotency key. An attempt that started is in the audit
   * trail, which takes one start per call id, so the re-run is the next attempt (its own call id).
   */
  private async adoptRecorded(d: Drive, c: RunToolCallEntity): Promise<void> {
    const record = await this.callRecords.find({ tenantId: d.ref.tenantId, callId: attemptCallId(c) });
    if (!record) return;
    if (record.status === 'running' || record.status === 'interrupted') {
      // Stored before it runs: a takeover of the re-run looks at the re-run's record.
      await this.runs.setAttempt(c, c.attempt + 1);
      c.attempt += 1;
      return;
    }
    if (record.status === 'pending_approval' || record.status === 'queued' || !record.envelope) {
      await this.runs.updateCall(c, {
        status: 'pending_approval',
        approvalId: record.approvalId,
        result: null,
        modelText: null,
      });
      Object.assign(c, { status: 'pending_approval', approvalId: record.approvalId });
      return;
    }
    await this.runner.record(d, c, record.status, record.envelope as Envelope, null);
  }

  /**
   * endsTurn (docs/tool-design-rules.md §4.6): a step whose calls all end the turn and all
   * succeeded ends the run, with the last call's model output as the answer. Null otherwise, and
   * always in a sub-agent's run.
   */
  endingAnswer(d: Drive, step: RunStepEntity): string | null {
    // A sub-agent always hands its results back to its own model (seed 000: endsTurn is ignored).
    if (d.run.parentRunId !== null) return null;
    const calls = d.calls.filter((c) => c.stepIndex === step.stepIndex);
    if (!calls.length || calls.some((c) => c.status !== 'succeeded')) return null;
    for (const c of calls) {
      const endsTurn = d.agent.binding.tools.get(c.tool)?.contract.endsTurn;
      const data = (c.result as { data?: unknown } | null)?.data;
      const ends = typeof endsTurn === 'function' ? safely(() => endsTurn(data as never)) : endsTurn === true;
      if (!ends) return null;
    }
    return calls.at(-1)!.modelText ?? '';
  }
}

function safely(f: () => boolean): boolean {
  try {
    return f();
  } catch {
    return false;
  }
}
