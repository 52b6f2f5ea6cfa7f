import { Injectable, Optional } from '@nestjs/common';
import { hasValuesAt, ModelTurnGuard, type ClassifiedResult } from '@toolgate/data-protection';
import { ModelError, type ModelTurn } from '@toolgate/models';
import { TokenBudget } from '@toolgate/quotas';
import { errorEnvelope, humanizeToolName, isOk, type Envelope, type ErrorEnvelope } from '@toolgate/toolkit';
import type { AgentRunEntity } from '../entities/agent-run.entity.js';
import { RunStepEntity } from '../entities/run-step.entity.js';
import { RunToolCallEntity } from '../entities/run-tool-call.entity.js';
import { RunRepository, type RunEnding } from '../store/run.repository.js';
import { usageOf, type Drive, type DriveOutcome } from './run-drive.js';
import { RunEndings } from './run-endings.js';
import { runCallId } from './run-ids.js';
import { buildMessages, parseArguments } from './run-messages.js';
import { StepChecks } from './step-checks.js';

/**
 * One model turn of a drive: ask the model with the conversation so far, count its tokens, and
 * store the turn with the calls it asks for before any of them runs (a takeover starts from there).
 * A turn without calls is the run's answer: its end is stored with it.
 */
@Injectable()
export class RunTurns {
  constructor(
    private readonly runs: RunRepository,
    private readonly tenantTokens: TokenBudget,
    private readonly endings: RunEndings,
    private readonly checks: StepChecks,
    @Optional() private readonly exportGuard?: ModelTurnGuard,
  ) {}

  /** Takes the next turn: null when the run goes on to the turn's calls, else how the drive ends. */
  async take(d: Drive): Promise<DriveOutcome | null> {
    const stepIndex = d.steps.length;
    // Personal information from the tools' results goes to the model with the turn: the
    // cross-border guard decides before anything is sent (ADR 047). Refused: the run fails.
    const refused = await this.exportRefusal(d);
    if (refused) return this.endings.fail(d, refused);
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
      if (d.signal.aborted) return this.endings.interrupted(d);
      const e = err instanceof ModelError ? err : new ModelError('MODEL_UNAVAILABLE', String(err));
      return this.endings.fail(d, errorEnvelope(e.code, d.locale, { reason: e.reason }));
    }
    d.usage.inputTokens += turn.usage.inputTokens;
    d.usage.outputTokens += turn.usage.outputTokens;
    // Held for the turn's own write, which carries it (ADR 050): stored with the turn, before any call runs.
    this.tenantTokens.spend(d.ref.tenantId, turn.usage.inputTokens + turn.usage.outputTokens);
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
    // The tenant's tokens ride in the turn's transaction; the checks before its calls read after it.
    const load = this.checks.carry(d);
    let held: boolean;
    try {
      const stored = await this.runs.storeStep(
        step,
        calls,
        {
          owner: d.owner,
          steps: stepIndex + 1,
          inputTokens: d.usage.inputTokens,
          outputTokens: d.usage.outputTokens,
        },
        { settled: d.settled, ending },
        load.carried,
      );
      load.after(stored.rows);
      held = stored.held;
    } catch (err) {
      load.after(null);
      throw err;
    }
    d.settled = null;
    d.steps.push(step);
    d.calls.push(...calls);
    for (const c of calls) d.fresh.add(c.callId);
    if (!held) return 'stopped';
    if (ending) {
      this.endings.finished(d, ending);
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
    return null;
  }

  /**
   * DATA_EXPORT_BLOCKED when the turn would carry classified tool results to a model provider the
   * tenant may not send them to; null otherwise (then counted). A result counts when the tool's
   * answer has values in fields it marks classified — the answer itself, not a `toModelOutput`
   * projection of it: a projection may still quote them.
   */
  private async exportRefusal(d: Drive): Promise<ErrorEnvelope | null> {
    if (!this.exportGuard || !d.calls.length) return null;
    const contracts = new Map(d.agent.tools(true).map((t) => [t.contract.name, t.contract]));
    const lastStep = d.steps.at(-1)?.stepIndex;
    const carried: ClassifiedResult[] = [];
    for (const c of d.calls) {
      const paths = contracts.get(c.tool)?.outputSensitivePaths;
      const result = c.result as Envelope | null;
      if (!paths?.length || !result || !isOk(result)) continue;
      if (
        hasValuesAt(
          result.data,
          paths.map((f) => f.path),
        )
      )
        carried.push({ tool: c.tool, fresh: c.stepIndex === lastStep });
    }
    return this.exportGuard.check(d.ref.tenantId, d.model.provider, carried, d.locale);
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
}
