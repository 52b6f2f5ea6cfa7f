import { Injectable } from '@nestjs/common';
import { searchDeferred, TOOL_CALL, TOOL_SEARCH, unwrapToolCall } from '@toolgate/agents';
import {
  ErrorCode,
  invalidInputEnvelope,
  isOk,
  ToolgateError,
  type Envelope,
  type ErrorEnvelope,
  type ToolCallEvent,
} from '@toolgate/toolkit';
import type { RunStepEntity } from '../entities/run-step.entity.js';
import type { RunToolCallEntity } from '../entities/run-tool-call.entity.js';
import { RunRepository } from '../store/run.repository.js';
import type { Drive } from './run-drive.js';
import { attemptCallId } from './run-ids.js';
import { modelTextOf, modelTextOfEnvelope } from './run-messages.js';
import { StepChecks } from './step-checks.js';
import { SubAgents } from './sub-agents.js';

/**
 * One call of a stored turn, run and recorded: through the governed pipeline exactly as a REST
 * invoke does (the meta tools `tool_search` and `tool_call` answered or unwrapped first), or, for a
 * `delegate_to_<agentType>` call, by following its child run. Its outcome (or its parking on an
 * approval) is stored as it comes and told to the run's stream.
 */
@Injectable()
export class RunCalls {
  constructor(
    private readonly runs: RunRepository,
    private readonly subAgents: SubAgents,
    private readonly checks: StepChecks,
  ) {}

  /** Runs one call through the governed pipeline, exactly as a REST invoke does. */
  async run(d: Drive, step: RunStepEntity, c: RunToolCallEntity): Promise<void> {
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
  async delegate(d: Drive, c: RunToolCallEntity, agentType: string): Promise<void> {
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

  /** Stores a call's outcome and tells the run's stream. */
  async record(
    d: Drive,
    c: RunToolCallEntity,
    status: RunToolCallEntity['status'],
    envelope: Envelope,
    modelOutput: Parameters<typeof modelTextOfEnvelope>[1] | null,
  ): Promise<void> {
    const modelText = modelOutput ? modelTextOf({ envelope, modelOutput }) : modelTextOfEnvelope(envelope);
    // The checks before the next turn read in this write's round trip (ADR 050).
    const load = this.checks.carry(d);
    try {
      load.after(
        await this.runs.updateCall(
          c,
          { status, approvalId: c.approvalId, result: envelope, modelText },
          load.carried,
        ),
      );
    } catch (err) {
      load.after(null);
      throw err;
    }
    Object.assign(c, { status, result: envelope, modelText });
    d.emit('tool_result', { step: c.stepIndex, callId: c.callId, tool: c.tool, status, result: envelope });
  }
}
