import { Inject, Injectable } from '@nestjs/common';
import { AgentFactory, metaTools, modelToolOf } from '@toolgate/agents';
import type { RunEventType } from '@toolgate/contract';
import { ModelError } from '@toolgate/models';
import { errorEnvelope, ErrorCode, ToolgateError, type ErrorEnvelope, type Locale } from '@toolgate/toolkit';
import type { AgentRunEntity } from '../entities/agent-run.entity.js';
import { RunEvents } from '../events/run-events.js';
import { RunRepository, type RunRef } from '../store/run.repository.js';
import {
  DriveStopped,
  type CreatedRun,
  type Drive,
  type DriveOutcome,
  type DriveResult,
} from './run-drive.js';
import { RunEndings } from './run-endings.js';
import { limitReached } from './run-limits.js';
import { RUN_MODEL_SOURCE, type RunModelSource } from './run-models.js';
import { parseModelLabel, runSettingsOf } from './run-settings.js';
import { RunStepTrace } from './run-step-trace.js';
import { RunTurns } from './run-turns.js';
import { StepCalls } from './step-calls.js';
import { StepChecks } from './step-checks.js';
import { SubAgents } from './sub-agents.js';

/**
 * The agent loop (docs/tool-design-rules.md §A4): ask the model, run the tool calls it asks for
 * through the governed pipeline, give it the results, until it answers, parks on approval, or hits
 * a limit. Durable: each model turn is stored before its calls run, each call's outcome as it
 * comes; a drive starts from what is stored, so a resumed or taken-over run never repeats a
 * finished call and re-runs an interrupted one under the same idempotency key.
 *
 * This class prepares a drive and goes round: settle the last stored turn's calls (StepCalls),
 * check the limits, take the next turn (RunTurns); RunEndings writes how it ends. The caller holds
 * the run's lease (RunDriver) and aborts `signal` when it loses it or the run is cancelled; no
 * status is written without naming the lease owner.
 */
@Injectable()
export class RunLoop {
  constructor(
    private readonly runs: RunRepository,
    private readonly events: RunEvents,
    private readonly agents: AgentFactory,
    private readonly subAgents: SubAgents,
    @Inject(RUN_MODEL_SOURCE) private readonly models: RunModelSource,
    private readonly turns: RunTurns,
    private readonly checks: StepChecks,
    private readonly stepCalls: StepCalls,
    private readonly endings: RunEndings,
  ) {}

  /** Drives a run this gateway holds the lease of, until it finishes, parks or is stopped. */
  async drive(
    run: AgentRunEntity,
    owner: string,
    signal: AbortSignal,
    created?: CreatedRun,
  ): Promise<DriveResult> {
    const ref = { tenantId: run.tenantId, runId: run.runId };
    // Events are written in batches behind the drive; the drive ends once they are stored.
    const events = this.events.queue(ref);
    const emit = (type: RunEventType, data: Record<string, unknown>) => events.emit(type, data);
    let d: Drive | undefined;
    try {
      d = await this.prepare(run, ref, owner, signal, emit, created);
      const outcome = await this.loop(d);
      return { outcome, finished: d.finished ?? null };
    } catch (err) {
      if (d && (d.signal.aborted || err instanceof DriveStopped))
        return { outcome: await this.endings.interrupted(d), finished: d.finished ?? null };
      if (signal.aborted) return { outcome: 'stopped', finished: null };
      // Before the loop: the agent type is gone, or its model's provider is not configured.
      const locale = run.locale as Locale;
      const envelope =
        err instanceof ModelError
          ? errorEnvelope(err.code, locale, { reason: err.reason })
          : err instanceof ToolgateError
            ? err.toEnvelope(locale)
            : errorEnvelope(ErrorCode.INTERNAL_ERROR, locale);
      return { outcome: await this.endings.fail({ ref, owner, emit, run }, envelope), finished: null };
    } finally {
      // A settled step no later write carried (the drive stopped): stored on its own.
      if (d?.settled) d.writes.push(this.runs.finishStep(d.ref, d.settled).catch(() => undefined));
      d?.trace.close();
      await Promise.all(d?.writes ?? []);
      await events.flushed();
    }
  }

  private async prepare(
    run: AgentRunEntity,
    ref: RunRef,
    owner: string,
    signal: AbortSignal,
    emit: Drive['emit'],
    created: CreatedRun | undefined,
  ): Promise<Drive> {
    // A sub-agent's run does not get the tools only top-level agents may use, not even by name.
    const agent =
      created?.agent ??
      (await this.agents.create(run.tenantId, run.agentType, run.principal, {
        subAgent: run.parentRunId !== null,
      }));
    const settings = runSettingsOf(agent.binding);
    const locale = run.locale as Locale;
    const delegates = await this.subAgents.tools(run.tenantId, settings, locale);
    const parent = run.parentRunId
      ? await this.runs.find({ tenantId: run.tenantId, runId: run.parentRunId })
      : null;
    const model = parseModelLabel(run.model);
    // The deadline counts the time the run is driven (RunResumer moves it by the time parked).
    const deadline = AbortSignal.timeout(Math.max(0, run.deadlineAt.getTime() - Date.now()));
    return {
      run,
      ref,
      owner,
      agent,
      settings,
      model,
      client: this.models.client(model.provider),
      tools: [
        ...agent.tools().map((t) => modelToolOf(agent, t.contract.name, locale)),
        ...metaTools(agent, locale),
        ...delegates.tools,
      ],
      delegates: delegates.targets,
      parentSessionId: parent?.sessionId ?? null,
      locale,
      signal: AbortSignal.any([signal, deadline]),
      stop: signal,
      deadlineAt: run.deadlineAt,
      emit,
      // A run just created here has nothing stored yet: not read back (saves round trips per run).
      steps: created ? [] : await this.runs.steps(ref),
      calls: created ? [] : await this.runs.calls(ref),
      fresh: new Set(),
      writes: [],
      settled: null,
      ...(created?.newSession ? { history: [] } : {}),
      trace: new RunStepTrace(run.runId),
      startedNow: created !== undefined,
      usage: { inputTokens: run.inputTokens, outputTokens: run.outputTokens },
    };
  }

  private async loop(d: Drive): Promise<DriveOutcome> {
    for (;;) {
      if (d.signal.aborted) return this.endings.interrupted(d);
      const last = d.steps.at(-1);
      if (last && !last.finishedAt) {
        // The last stored turn has calls without an outcome: run them, or see how they were decided.
        const settled = await d.trace.inStep(last.stepIndex, () => this.stepCalls.settle(d, last));
        d.trace.close();
        if (settled === 'parked') return this.endings.park(d);
        // Not written here: the step's end goes with the drive's next write (the next turn, or the
        // run's end). A step whose calls all have their outcome is settled again, a no-op, by
        // whoever drives the run next if that write is lost.
        last.finishedAt = new Date();
        d.settled = { stepIndex: last.stepIndex, at: last.finishedAt };
        const answer = this.stepCalls.endingAnswer(d, last);
        if (answer !== null) return this.endings.complete(d, answer);
        continue;
      }
      const refused = await this.refusal(d);
      if (refused) return this.endings.fail(d, refused);
      const ended = await this.turns.take(d);
      if (ended) return ended;
    }
  }

  /**
   * Why the run may not take another turn: a limit of its own (steps, tokens, deadline), the
   * tenant's tokens of the day (all its runs on every gateway together), or its key (or its
   * person's session) no longer holding. Null when it may.
   */
  private async refusal(d: Drive): Promise<ErrorEnvelope | null> {
    const limit = limitReached(
      {
        steps: d.steps.length,
        tokens: d.usage.inputTokens + d.usage.outputTokens,
        deadlineAt: d.deadlineAt,
        now: new Date(),
      },
      d.settings,
      d.locale,
    );
    if (limit) return limit;
    // The first turn of a run created a moment ago: its key and its tenant's day were checked by the
    // request that started it. Later turns: read with the last call's outcome (ADR 050).
    if (d.startedNow && d.steps.length === 0) return null;
    return (await this.checks.dayRefusal(d)) ?? (await this.checks.standingLost(d));
  }
}
