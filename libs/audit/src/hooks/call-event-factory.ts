import {
  isOk,
  policyDecisionDetails,
  type CallFace,
  type ErrorEnvelope,
  type LateOutcome,
  type ToolCall,
  type ToolCallResult,
} from '@toolgate/toolkit';
import { currentTraceId } from '@toolgate/telemetry';
import { PLATFORM_TENANT, type AuditActor } from '../audit-event.js';
import { draftEvent, type AuditEventDraft, type DraftFields } from '../audit-fields.js';
import type { Redactor } from '../redaction/redactor.js';
import { storedData, storedEnvelope, storedInput } from '../redaction/stored-forms.js';
import { summarizeOutput } from './output-summary.js';

/** A finished call's stored envelope and its redacted data, kept on the call (`call.state`). */
const STORED_ENVELOPE = Symbol('audit.storedEnvelope');
const REDACTED_DATA = Symbol('audit.redactedData');

/** The actor of a call: its principal, or `system` when it has none. */
export function actorOf(call: ToolCall): AuditActor {
  const p = call.request.principal;
  return p ? { type: p.principalType, id: p.principalId } : { type: 'system', id: 'system' };
}

/**
 * A run's call ids are `<runId>.<step>.<index>`, and `<runId>.<step>.<index>.r<n>` for a re-run after
 * a takeover (libs/runs): the same run context after an approval.
 */
const RUN_CALL_ID = /^(run_[0-9a-f]{32})\.(\d+)\.\d+(?:\.r\d+)?$/;

/**
 * The agent run a call belongs to, if any: from the call's attributes (set by the run loop), else
 * from its id (an approved call of a parked run runs later, without the loop's attributes).
 */
export function runContextOf(call: ToolCall): { runId: string; step: number } | null {
  const a = call.request.attributes;
  if (typeof a?.runId === 'string' && typeof a.step === 'number') return { runId: a.runId, step: a.step };
  const m = RUN_CALL_ID.exec(call.id);
  return m ? { runId: m[1]!, step: Number(m[2]) } : null;
}

/**
 * The face a call came through (`rest`, `mcp`, `run`): as the caller said, else `run` for a call
 * of an agent run (an approved call resumes without its request), else unknown (undefined).
 */
export function faceOf(call: ToolCall): CallFace | undefined {
  return call.request.face ?? (runContextOf(call) ? 'run' : undefined);
}

/** Turns pipeline calls into audit drafts; every text that could carry input data is redacted. */
export class CallEventFactory {
  constructor(
    private readonly redactor: Redactor,
    private readonly instanceId: string,
  ) {}

  /** A draft of one of the call's events, now unless said: what all of them state, and `fields`. */
  private draft(call: ToolCall, fields: Pick<DraftFields, 'event'> & Partial<DraftFields>): AuditEventDraft {
    const r = call.request;
    const run = runContextOf(call);
    const face = faceOf(call);
    // The trace the call ran in (ADR 019), so compliance can jump from an event to its trace.
    const traceId = currentTraceId();
    // Inside the hashed details, not a column: the event hash format stays as it is.
    // The tenant's rule that decided the call, if one did (issue 26).
    const rule = policyDecisionDetails(call);
    const context =
      run || face || traceId || rule.rule || rule.guardrails
        ? { ...run, ...(face ? { face } : {}), ...(traceId ? { traceId } : {}), ...rule }
        : null;
    return draftEvent({
      tenantId: r.tenant?.id ?? PLATFORM_TENANT,
      callId: call.id,
      tool: call.tool.contract.name,
      implementation: call.tool.implementation.name,
      riskLevel: call.tool.contract.risk.level,
      agentType: r.agentType,
      sessionId: call.ctx.session.id,
      actor: actorOf(call),
      initiatorId: r.initiator?.principalId ?? null,
      approverId: r.approval?.responder.principalId ?? null,
      bindingVersion: call.tool.bindingVersion,
      definitionHash: call.tool.implementation.definitionHash,
      occurredAt: new Date(),
      instanceId: this.instanceId,
      ...fields,
      // Calls of agent runs say which run and step; calls say which face and trace they came through.
      ...(context ? { details: { ...fields.details, ...context } } : {}),
    });
  }

  /** `started`: the validated input (or the raw input, when it failed validation), redacted. */
  started(call: ToolCall, validated: boolean): AuditEventDraft {
    const input = validated ? call.input : call.rawInput;
    return this.draft(call, {
      event: 'started',
      occurredAt: new Date(call.startedAt),
      input: storedInput(this.redactor, input ?? null, call.tool.contract),
    });
  }

  /**
   * The envelope a finished call's record keeps (ADR 036): redacted like its `finished` event —
   * marked output fields by class, names where the tool opted in, error texts by value — and capped.
   * Remembered on the call, so the event's summary and the record share one redaction.
   */
  storedEnvelope(call: ToolCall, result: ToolCallResult): unknown {
    const known = call.state.get(STORED_ENVELOPE);
    if (known !== undefined) return known;
    const contract = call.tool.contract;
    let data: unknown;
    if (isOk(result.envelope)) {
      data = storedData(this.redactor, result.envelope.data, contract);
      call.state.set(REDACTED_DATA, data);
    }
    const stored = storedEnvelope(this.redactor, result.envelope, contract, data);
    call.state.set(STORED_ENVELOPE, stored);
    return stored;
  }

  /**
   * `accessed`: an L0 call in one event, after it ran (issue 23) — when it started, its redacted
   * input, status, code and duration; no output summary (reads are many, and cheap to record).
   */
  accessed(call: ToolCall, result: ToolCallResult): AuditEventDraft {
    const ok = isOk(result.envelope);
    return this.draft(call, {
      event: 'accessed',
      occurredAt: new Date(call.startedAt),
      input: storedInput(this.redactor, call.input ?? call.rawInput ?? null, call.tool.contract),
      status: ok ? 'ok' : 'error',
      code: ok ? null : (result.envelope as ErrorEnvelope).code,
      durationMs: Math.round(result.durationMs),
    });
  }

  /** `finished`: status, code, duration, output summary or the redacted error. */
  finished(call: ToolCall, result: ToolCallResult): AuditEventDraft {
    const durationMs = Math.round(result.durationMs);
    const contract = call.tool.contract;
    if (isOk(result.envelope)) {
      // The data as the record stores it is the output, redacted once for both.
      const same = result.envelope.data === result.output;
      if (same) this.storedEnvelope(call, result);
      return this.draft(call, {
        event: 'finished',
        status: 'ok',
        durationMs,
        outputSummary: summarizeOutput(
          result.output,
          result.modelOutput,
          this.redactor,
          contract,
          same ? call.state.get(REDACTED_DATA) : undefined,
        ),
      });
    }
    return this.draft(call, {
      event: 'finished',
      status: 'error',
      code: result.envelope.code,
      durationMs,
      details: this.errorDetails(result.envelope, contract.redactNames),
    });
  }

  /** `not_executed`: the call was refused before the tool ran (its start could not be audited). */
  notExecuted(call: ToolCall, reason: string): AuditEventDraft {
    return this.draft(call, {
      event: 'not_executed',
      status: 'error',
      code: 'AUDIT_UNAVAILABLE',
      details: { reason },
    });
  }

  /** `late_completion`: a call that answered TIMEOUT finished after all; what it really did. */
  late(call: ToolCall, outcome: LateOutcome): AuditEventDraft {
    const durationMs = Math.round(outcome.durationMs);
    if (outcome.status === 'ok') {
      return this.draft(call, {
        event: 'late_completion',
        status: 'ok',
        durationMs,
        outputSummary: summarizeOutput(outcome.output, undefined, this.redactor, call.tool.contract),
      });
    }
    return this.draft(call, {
      event: 'late_completion',
      status: 'error',
      code: outcome.envelope.code,
      durationMs,
      details: this.errorDetails(outcome.envelope, call.tool.contract.redactNames),
    });
  }

  private errorDetails(envelope: ErrorEnvelope, names: boolean): Record<string, unknown> {
    const details: Record<string, unknown> = { error: this.redactor.redactText(envelope.error, names) };
    const issues = envelope.details?.issues;
    if (Array.isArray(issues)) details.issues = this.redactor.redact(issues, [], names);
    return details;
  }
}
