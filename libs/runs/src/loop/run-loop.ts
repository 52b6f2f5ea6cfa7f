import { Inject, Injectable } from '@nestjs/common';
import {
  AgentFactory,
  metaTools,
  modelToolOf,
  searchDeferred,
  TOOL_CALL,
  TOOL_SEARCH,
  unwrapToolCall,
  type Agent,
} from '@toolgate/agents';
import { CallRecords } from '@toolgate/calls';
import { PrincipalStanding, standingLostEnvelope } from '@toolgate/auth';
import type { RunEventType } from '@toolgate/contract';
import {
  ModelError,
  type ModelClient,
  type ModelRef,
  type ModelTool,
  type ModelTurn,
} from '@toolgate/models';
import { TokenBudget } from '@toolgate/quotas';
import {
  errorEnvelope,
  ErrorCode,
  humanizeToolName,
  invalidInputEnvelope,
  isOk,
  ToolgateError,
  type Envelope,
  type ErrorEnvelope,
  type Locale,
  type ToolCallEvent,
} from '@toolgate/toolkit';
import { AgentRunEntity } from '../entities/agent-run.entity.js';
import { RunStepEntity } from '../entities/run-step.entity.js';
import { RunToolCallEntity } from '../entities/run-tool-call.entity.js';
import { RunEvents } from '../events/run-events.js';
import { RunRepository, type RunEnding, type RunRef } from '../store/run.repository.js';
import type { SettledStep } from '../store/run-sql.js';
import { attemptCallId, FINAL_CALL_STATUSES, runCallId } from './run-ids.js';
import { RunStepTrace } from './run-step-trace.js';
import { limitReached } from './run-limits.js';
import { buildMessages, modelTextOf, modelTextOfEnvelope, parseArguments } from './run-messages.js';
import { RUN_MODEL_SOURCE, type RunModelSource } from './run-models.js';
import { parseModelLabel, runSettingsOf, type AgentRunSettings } from './run-settings.js';
import { delegatedAgentType } from './sub-agent-rules.js';
import { SubAgents } from './sub-agents.js';

/** What the starter of a run knows of it: just created, so nothing of it is stored yet; nor of its session when new. */
export interface CreatedRun {
  readonly newSession: boolean;
  /** The agent the starter made for the run's principal (not made twice per run). */
  readonly agent?: Agent;
}

/** How one drive of a run ended: finished (any final status), parked on approval, or stopped (lease lost, cancelled). */
export type DriveOutcome = 'finished' | 'parked' | 'stopped';

/** A run that ended in this drive, exactly as stored (the drive wrote every row of it). */
export interface FinishedRun {
  readonly run: AgentRunEntity;
  readonly steps: readonly RunStepEntity[];
  readonly calls: readonly RunToolCallEntity[];
}

/** A drive's outcome; a run finished by a drive that knew all of it comes with its rows. */
export interface DriveResult {
  readonly outcome: DriveOutcome;
  readonly finished: FinishedRun | null;
}

/** Everything one drive of a run works with. */
interface Drive {
  readonly run: AgentRunEntity;
  readonly ref: RunRef;
  readonly owner: string;
  readonly agent: Agent;
  readonly settings: AgentRunSettings;
  readonly model: ModelRef;
  readonly client: ModelClient;
  readonly tools: ModelTool[];
  /** `delegate_to_<agentType>` tool names offered to the model, and their agent types. */
  readonly delegates: ReadonlyMap<string, string>;
  /** A sub-agent's run: the session of the run that delegated to it. */
  readonly parentSessionId: string | null;
  readonly locale: Locale;
  /** Fires on cancel, a lost lease, or the deadline: reaches the model call and the running tools. */
  readonly signal: AbortSignal;
  /** Fires on cancel or a lost lease only (the deadline fails the run instead). */
  readonly stop: AbortSignal;
  readonly deadlineAt: Date;
  readonly emit: (type: RunEventType, data: Record<string, unknown>) => void;
  steps: RunStepEntity[];
  calls: RunToolCallEntity[];
  /** Calls stored by this drive: nothing else can have run them yet. */
  readonly fresh: Set<string>;
  usage: { inputTokens: number; outputTokens: number };
  /** Writes the drive does not wait for, awaited before it ends. */
  readonly writes: Promise<void>[];
  /** The last step, settled and not yet stored so: written with the drive's next write. */
  settled: SettledStep | null;
  /** The run as it ended in this drive. */
  finished?: FinishedRun;
  /** The session's earlier runs, read once per drive: they ended before this run was created. */
  history?: { input: string; output: string }[];
  /** The drive's step spans (model call, then tool calls), when tracing. */
  readonly trace: RunStepTrace;
  /** Created by the request that started it: its key was checked a moment ago, for the first step. */
  readonly startedNow: boolean;
}

/** What ending a run needs: a drive, or the start of one that could not be prepared. */
type Ending = Pick<Drive, 'ref' | 'owner' | 'emit' | 'run'> &
  Partial<Pick<Drive, 'usage' | 'steps' | 'calls' | 'settled' | 'finished'>>;

/** Why a drive stops early: its signal fired (cancel, lost lease, deadline). */
class DriveStopped extends Error {}

/**
 * The agent loop (docs/tool-design-rules.md §A4): ask the model, run the tool calls it asks for
 * through the governed pipeline, give it the results, until it answers, parks on approval, or hits
 * a limit. Durable: each model turn is stored before its calls run, each call's outcome as it
 * comes; a drive starts from what is stored, so a resumed or taken-over run never repeats a
 * finished call and re-runs an interrupted one under the same idempotency key.
 *
 * The caller holds the run's lease (RunDriver) and aborts `signal` when it loses it or the run is
 * cancelled; this class never writes a status without naming the lease owner.
 */
@Injectable()
export class RunLoop {
  constructor(
    private readonly runs: RunRepository,
    private readonly events: RunEvents,
    private readonly agents: AgentFactory,
    private readonly callRecords: CallRecords,
    private readonly subAgents: SubAgents,
    @Inject(RUN_MODEL_SOURCE) private readonly models: RunModelSource,
    private readonly tenantTokens: TokenBudget,
    private readonly standing: PrincipalStanding,
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
        return { outcome: await this.interrupted(d), finished: d.finished ?? null };
      if (signal.aborted) return { outcome: 'stopped', finished: null };
      // Before the loop: the agent type is gone, or its model's provider is not configured.
      const locale = run.locale as Locale;
      const envelope =
        err instanceof ModelError
          ? errorEnvelope(err.code, locale, { reason: err.reason })
          : err instanceof ToolgateError
            ? err.toEnvelope(locale)
            : errorEnvelope(ErrorCode.INTERNAL_ERROR, locale);
      return { outcome: await this.fail({ ref, owner, emit, run }, envelope), finished: null };
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
      if (d.signal.aborted) return this.interrupted(d);
      const last = d.steps.at(-1);
      if (last && !last.finishedAt) {
        // The last stored turn has calls without an outcome: run them, or see how they were decided.
        const settled = await d.trace.inStep(last.stepIndex, () => this.settleStep(d, last));
        d.trace.close();
        if (settled === 'parked') return this.park(d);
        // Not written here: the step's end goes with the drive's next write (the next turn, or the
        // run's end). A step whose calls all have their outcome is settled again, a no-op, by
        // whoever drives the run next if that write is lost.
        last.finishedAt = new Date();
        d.settled = { stepIndex: last.stepIndex, at: last.finishedAt };
        const answer = this.turnEndingAnswer(d, last);
        if (answer !== null) return this.complete(d, answer);
        continue;
      }

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
      if (limit) return this.fail(d, limit);
      // The tenant's tokens of the day, all its runs on every gateway together.
      const dayLimit = await this.tenantTokens.exceeded(d.ref.tenantId, d.locale);
      if (dayLimit) return this.fail(d, dayLimit);
      // A run acts only while its key (or its person's session) holds: a revoked one ends it here.
      const lost = d.startedNow && d.steps.length === 0 ? null : await this.standingLost(d);
      if (lost) return this.fail(d, lost);

      const stepIndex = d.steps.length;
      d.emit('model_started', { step: stepIndex });
      const startedAt = new Date();
      let turn: ModelTurn;
      try {
        turn = await d.trace.modelCall(stepIndex, d.run.model, async () =>
          d.client.complete({
            model: d.model,
            messages: this.messages(d, (d.history ??= await this.history(d.run))),
            tools: d.tools,
            parallelToolCalls: d.settings.maxParallelToolCalls > 1,
            signal: d.signal,
            onTextDelta: (delta) => d.emit('text_delta', { step: stepIndex, delta }),
          }),
        );
      } catch (err) {
        if (d.signal.aborted) return this.interrupted(d);
        const e = err instanceof ModelError ? err : new ModelError('MODEL_UNAVAILABLE', String(err));
        return this.fail(d, errorEnvelope(e.code, d.locale, { reason: e.reason }));
      }
      d.usage.inputTokens += turn.usage.inputTokens;
      d.usage.outputTokens += turn.usage.outputTokens;
      // Counted beside the turn's own write (never rejects); both are stored before any call runs.
      const spent = this.tenantTokens.spend(d.ref.tenantId, turn.usage.inputTokens + turn.usage.outputTokens);
      d.emit('model_finished', {
        step: stepIndex,
        text: turn.text,
        toolCalls: turn.toolCalls.length,
        usage: usageOf(turn.usage),
      });

      // The turn is stored before any of its calls runs: a takeover starts from here.
      const step = Object.assign(new RunStepEntity(), {
        ...d.ref,
        stepIndex,
        text: turn.text,
        toolCalls: [...turn.toolCalls],
        inputTokens: turn.usage.inputTokens,
        outputTokens: turn.usage.outputTokens,
        startedAt,
        finishedAt: turn.toolCalls.length ? null : new Date(),
      });
      const calls = turn.toolCalls.map((c, callIndex) =>
        Object.assign(new RunToolCallEntity(), {
          ...d.ref,
          stepIndex,
          callIndex,
          callId: runCallId(d.run.runId, stepIndex, callIndex),
          attempt: 1,
          tool: c.name.slice(0, 64),
          input: parseArguments(c.arguments),
          status: 'running',
          approvalId: null,
          result: null,
          modelText: null,
          updatedAt: new Date(),
        }),
      );
      // A turn without calls ends the run: its end is stored with it.
      const ending: RunEnding | undefined = calls.length
        ? undefined
        : { status: 'completed', output: turn.text ?? '', error: null, at: new Date() };
      const [held] = await Promise.all([
        this.runs.storeStep(
          step,
          calls,
          {
            owner: d.owner,
            steps: stepIndex + 1,
            inputTokens: d.usage.inputTokens,
            outputTokens: d.usage.outputTokens,
          },
          { settled: d.settled, ending },
        ),
        spent,
      ]);
      d.settled = null;
      d.steps.push(step);
      d.calls.push(...calls);
      for (const c of calls) d.fresh.add(c.callId);
      if (!held) return 'stopped';
      if (ending) {
        this.finished(d, ending);
        return 'finished';
      }
      for (const c of calls)
        d.emit('tool_call_requested', {
          step: stepIndex,
          callId: c.callId,
          tool: c.tool,
          input: c.input,
          label: humanizeToolName(c.tool),
        });
    }
  }

  /** The model's conversation: instructions, the session so far, the question, the stored steps. */
  private messages(d: Drive, history: { input: string; output: string }[]) {
    return buildMessages(
      d.settings.instructions,
      history,
      d.run.input,
      d.steps.map((s) => ({
        text: s.text,
        toolCalls: s.toolCalls,
        results: s.toolCalls.map(
          (_, i) => d.calls.find((c) => c.stepIndex === s.stepIndex && c.callIndex === i)?.modelText ?? null,
        ),
      })),
    );
  }

  /** Earlier completed runs of the session by the same key and agent type, oldest first. */
  private async history(run: AgentRunEntity) {
    const runs = await this.runs.session(run.tenantId, run.sessionId);
    return runs
      .filter(
        (r) =>
          r.runId !== run.runId &&
          r.status === 'completed' &&
          r.createdAt <= run.createdAt &&
          r.principalId === run.principalId &&
          r.agentType === run.agentType,
      )
      .map((r) => ({ input: r.input, output: r.output ?? '' }));
  }

  /**
   * Brings every call of a step to an outcome: calls without one run (at most
   * `maxParallelToolCalls` at a time); parked calls take the outcome of their decided approval.
   * 'parked' while any call still waits for a person.
   */
  private async settleStep(d: Drive, step: RunStepEntity): Promise<'settled' | 'parked'> {
    const calls = d.calls.filter((c) => c.stepIndex === step.stepIndex);
    for (const c of calls.filter((x) => x.status === 'running' && !d.fresh.has(x.callId)))
      await this.adoptRecorded(d, c);
    const queue = calls.filter((c) => c.status === 'running');
    // Nothing runs for a principal that no longer holds: the calls fail without running, and the
    // run ends before its next model turn (loop).
    const lost = queue.length ? await this.standingLost(d) : null;
    if (lost)
      for (const c of queue.splice(0)) await this.record(d, c, 'failed', { ...lost, callId: c.callId }, null);
    const workers = Array.from(
      { length: Math.min(d.settings.maxParallelToolCalls, queue.length) },
      async () => {
        for (let c = queue.shift(); c; c = queue.shift()) await this.runCall(d, step, c);
      },
    );
    await Promise.all(workers);
    if (d.signal.aborted) throw new DriveStopped();

    let waiting = false;
    for (const c of calls.filter((x) => x.status === 'pending_approval')) {
      // A delegate call waits for its child run, not for an approval of its own.
      const delegatedTo = c.approvalId ? null : delegatedAgentType(c.tool);
      if (delegatedTo) {
        await this.delegate(d, c, delegatedTo);
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
      await this.record(
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
    await this.record(d, c, record.status, record.envelope as Envelope, null);
  }

  /** Runs one call through the governed pipeline, exactly as a REST invoke does. */
  private async runCall(d: Drive, step: RunStepEntity, c: RunToolCallEntity): Promise<void> {
    if (d.signal.aborted) return;
    const asked = step.toolCalls[c.callIndex]!;
    if (c.input === null) {
      const envelope = invalidInputEnvelope(
        [
          {
            kind: 'other',
            path: [],
            message: `the arguments are not a JSON object: ${asked.arguments.slice(0, 200)}`,
          },
        ],
        d.locale,
      );
      return this.record(d, c, 'failed', envelope, null);
    }
    const input = c.input as Record<string, unknown>;
    const delegatedTo = d.delegates.get(asked.name);
    if (delegatedTo) return this.delegate(d, c, delegatedTo);
    let target = { name: asked.name, input: input as unknown };
    if (d.tools.some((t) => t.name === TOOL_SEARCH) && asked.name === TOOL_SEARCH) {
      const found = searchDeferred(d.agent, input.query, d.locale);
      return this.record(d, c, 'succeeded', { data: found, status: 'ok' }, null);
    }
    if (d.tools.some((t) => t.name === TOOL_CALL) && asked.name === TOOL_CALL) {
      const unwrapped = unwrapToolCall(input, d.locale);
      if ('code' in unwrapped) return this.record(d, c, 'failed', unwrapped, null);
      target = unwrapped;
    }
    try {
      d.agent.tool(target.name);
    } catch (err) {
      if (err instanceof ToolgateError) return this.record(d, c, 'failed', err.toEnvelope(d.locale), null);
      throw err;
    }
    const result = await d.agent.invoke(target.name, target.input, {
      callId: attemptCallId(c),
      idempotencyIdentity: c.callId,
      sessionId: d.run.sessionId,
      parentSessionId: d.parentSessionId,
      locale: d.locale,
      signal: d.signal,
      onEvent: (event: ToolCallEvent) =>
        d.emit(
          'tool_partial',
          event.type === 'partial'
            ? { callId: c.callId, partial: event.data }
            : { callId: c.callId, label: event.text, phase: event.phase },
        ),
      attributes: { runId: d.run.runId, step: step.stepIndex },
      face: 'run',
    });
    const envelope = result.envelope;
    if (!isOk(envelope) && envelope.code === ErrorCode.APPROVAL_PENDING) {
      const approvalId = String((envelope as ErrorEnvelope & { approvalId?: string }).approvalId ?? '');
      await this.runs.updateCall(c, {
        status: 'pending_approval',
        approvalId,
        result: null,
        modelText: null,
      });
      Object.assign(c, { status: 'pending_approval', approvalId });
      d.emit('approval_requested', { callId: c.callId, approvalId, tool: c.tool });
      return;
    }
    if (d.signal.aborted) return; // cancelled mid-call: the outcome stays unrecorded here
    await this.record(d, c, isOk(envelope) ? 'succeeded' : 'failed', envelope, result.modelOutput);
  }

  /**
   * A `delegate_to_<agentType>` call: its child run is started (once: its id derives from the
   * call's) and followed. Ended → the call takes the child's outcome, and the child's tokens count
   * towards this run's usage (and budget); parked on an approval → the call waits, and so does
   * this run.
   */
  private async delegate(d: Drive, c: RunToolCallEntity, agentType: string): Promise<void> {
    const outcome = await this.subAgents.delegate({
      parent: d.run,
      call: c,
      agentType,
      signal: d.signal,
      emit: d.emit,
    });
    if (outcome.kind === 'stopped') return;
    if (outcome.kind === 'parked') {
      if (c.status === 'pending_approval') return;
      await this.runs.updateCall(c, {
        status: 'pending_approval',
        approvalId: null,
        result: null,
        modelText: null,
      });
      Object.assign(c, { status: 'pending_approval', approvalId: null });
      for (const a of outcome.approvals) d.emit('approval_requested', { ...a, runId: outcome.childRunId });
      return;
    }
    d.usage.inputTokens += outcome.usage.inputTokens;
    d.usage.outputTokens += outcome.usage.outputTokens;
    const { inputTokens, outputTokens } = d.usage;
    const progress = { owner: d.owner, steps: d.steps.length, inputTokens, outputTokens };
    if (!(await this.runs.progress(d.ref, progress))) return;
    const modelOutput =
      outcome.status === 'succeeded' ? { type: 'text' as const, value: outcome.modelText } : null;
    await this.record(d, c, outcome.status, outcome.envelope, modelOutput);
  }

  private async record(
    d: Drive,
    c: RunToolCallEntity,
    status: RunToolCallEntity['status'],
    envelope: Envelope,
    modelOutput: Parameters<typeof modelTextOfEnvelope>[1] | null,
  ): Promise<void> {
    const modelText = modelOutput ? modelTextOf({ envelope, modelOutput }) : modelTextOfEnvelope(envelope);
    await this.runs.updateCall(c, { status, approvalId: c.approvalId, result: envelope, modelText });
    Object.assign(c, { status, result: envelope, modelText });
    d.emit('tool_result', { step: c.stepIndex, callId: c.callId, tool: c.tool, status, result: envelope });
  }

  /**
   * UNAUTHENTICATED when the run's key has been revoked (or its person's session ended) since it
   * started, else null: asked before every step, so a resumed run does nothing more for it.
   */
  private async standingLost(d: Drive): Promise<ErrorEnvelope | null> {
    const principal = d.run.principal;
    return (await this.standing.stillValid(principal)) ? null : standingLostEnvelope(principal, d.locale);
  }

  /**
   * endsTurn (docs/tool-design-rules.md §4.6): a step whose calls all end the turn and all
   * succeeded ends the run, with the last call's model output as the answer. Null otherwise, and
   * always in a sub-agent's run.
   */
  private turnEndingAnswer(d: Drive, step: RunStepEntity): string | null {
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

  /** The drive's signal fired: stopped (cancel, lost lease), or failed past its deadline. */
  private interrupted(d: Drive): Promise<DriveOutcome> | DriveOutcome {
    if (d.stop.aborted) return 'stopped';
    return this.fail(
      d,
      errorEnvelope(ErrorCode.DEADLINE_EXCEEDED, d.locale, { deadlineMs: d.settings.deadlineMs }),
    );
  }

  private async park(d: Drive): Promise<DriveOutcome> {
    return (await this.runs.park(d.ref, d.owner)) ? 'parked' : 'stopped';
  }

  private async complete(d: Drive, output: string): Promise<DriveOutcome> {
    return this.end(d, { status: 'completed', output, error: null, at: new Date() });
  }

  private fail(d: Ending, error: ErrorEnvelope): Promise<DriveOutcome> {
    const at = new Date();
    return this.end(d, {
      status: 'failed',
      output: null,
      error: error as unknown as Record<string, unknown>,
      at,
    });
  }

  private async end(d: Ending, ending: RunEnding): Promise<DriveOutcome> {
    const settled = d.settled ?? null;
    if (!(await this.runs.finish(d.ref, d.owner, ending, settled))) return 'stopped';
    if (settled) d.settled = null;
    this.finished(d, ending);
    return 'finished';
  }

  /** Announces the run's end; a drive that knows all of the run keeps it as stored, for its answer. */
  private finished(d: Ending, ending: RunEnding): void {
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
}

export const usageOf = (u: { inputTokens: number; outputTokens: number }) => ({
  inputTokens: u.inputTokens,
  outputTokens: u.outputTokens,
  totalTokens: u.inputTokens + u.outputTokens,
});

function safely(f: () => boolean): boolean {
  try {
    return f();
  } catch {
    return false;
  }
}
