import { jsonText, sealJson, sealText, toSqlDateTime, type WriteStatement } from '@toolgate/database';
import type { AgentRunEntity } from '../entities/agent-run.entity.js';
import type { RunStepEntity } from '../entities/run-step.entity.js';
import type { RunToolCallEntity } from '../entities/run-tool-call.entity.js';
import type { RunRef } from './run.repository.js';

/*
 * The writes of a driven run as plain SQL both databases take, so that a step's statements go in
 * one round trip (TransactionRunner.writeAll) and TypeORM neither builds them per row nor reads a
 * row back after inserting it. Values are stored as TypeORM stores them: DATETIME(3) as UTC text,
 * JSON as its text, and a null JSON value as SQL NULL. What a run says — its question and answer,
 * turns, calls' inputs and results — is sealed at rest while the run goes on, as the entities'
 * transformers seal it (ADR 036).
 */

/** A JSON value of a live run, sealed. */
const sealed = (v: unknown): string | null => jsonText(sealJson(v));
/** A text of a live run, sealed. */
const sealedText = (v: string | null): string | null => (v === null ? null : sealText(v));
const placeholders = (n: number) => `(${Array(n).fill('?').join(',')})`;

/** A step whose calls all have their outcome, and when it was seen so. */
export interface SettledStep {
  readonly stepIndex: number;
  readonly at: Date;
}

const dateOrNull = (d: Date | null) => (d ? toSqlDateTime(d) : null);

export function insertRun(r: AgentRunEntity): WriteStatement {
  return {
    sql: `INSERT INTO agent_runs (tenant_id, run_id, session_id, parent_run_id, agent_type, principal, principal_id, locale, model, status, input, output, error, steps, input_tokens, output_tokens, lease_owner, lease_until, deadline_at, created_at, updated_at, finished_at) VALUES ${placeholders(22)}`,
    params: [
      r.tenantId,
      r.runId,
      r.sessionId,
      r.parentRunId,
      r.agentType,
      jsonText(r.principal),
      r.principalId,
      r.locale,
      r.model,
      r.status,
      sealText(r.input),
      sealedText(r.output),
      sealed(r.error),
      r.steps,
      r.inputTokens,
      r.outputTokens,
      r.leaseOwner,
      dateOrNull(r.leaseUntil),
      toSqlDateTime(r.deadlineAt),
      toSqlDateTime(r.createdAt),
      toSqlDateTime(r.updatedAt),
      dateOrNull(r.finishedAt),
    ],
  };
}

export function insertStep(step: RunStepEntity): WriteStatement {
  return {
    sql: `INSERT INTO run_steps (tenant_id, run_id, step_index, text, tool_calls, input_tokens, output_tokens, started_at, finished_at) VALUES ${placeholders(9)}`,
    params: [
      step.tenantId,
      step.runId,
      step.stepIndex,
      sealedText(step.text),
      sealed(step.toolCalls),
      step.inputTokens,
      step.outputTokens,
      toSqlDateTime(step.startedAt),
      dateOrNull(step.finishedAt),
    ],
  };
}

export function insertCalls(calls: readonly RunToolCallEntity[]): WriteStatement {
  return {
    sql: `INSERT INTO run_tool_calls (tenant_id, run_id, step_index, call_index, call_id, attempt, tool, input, status, approval_id, result, model_text, updated_at) VALUES ${calls.map(() => placeholders(13)).join(',')}`,
    params: calls.flatMap((c) => [
      c.tenantId,
      c.runId,
      c.stepIndex,
      c.callIndex,
      c.callId,
      c.attempt,
      c.tool,
      sealed(c.input),
      c.status,
      c.approvalId,
      sealed(c.result),
      sealedText(c.modelText),
      toSqlDateTime(c.updatedAt),
    ]),
  };
}

export function finishStep(ref: RunRef, settled: SettledStep): WriteStatement {
  return {
    sql: 'UPDATE run_steps SET finished_at = ? WHERE tenant_id = ? AND run_id = ? AND step_index = ?',
    params: [toSqlDateTime(settled.at), ref.tenantId, ref.runId, settled.stepIndex],
  };
}

export function updateCall(
  call: RunToolCallEntity,
  fields: Pick<RunToolCallEntity, 'status' | 'approvalId' | 'result' | 'modelText'>,
  at: Date,
): WriteStatement {
  return {
    sql: 'UPDATE run_tool_calls SET status = ?, approval_id = ?, result = ?, model_text = ?, updated_at = ? WHERE tenant_id = ? AND run_id = ? AND step_index = ? AND call_index = ?',
    params: [
      fields.status,
      fields.approvalId,
      sealed(fields.result),
      sealedText(fields.modelText),
      toSqlDateTime(at),
      call.tenantId,
      call.runId,
      call.stepIndex,
      call.callIndex,
    ],
  };
}

/** The columns a driven run's row changes, written only while it is `running` under `owner`. */
export function updateDrivenRun(
  ref: RunRef,
  owner: string,
  set: Readonly<Record<string, string | number | null>>,
): WriteStatement {
  const columns = Object.keys(set);
  return {
    sql: `UPDATE agent_runs SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE tenant_id = ? AND run_id = ? AND status = 'running' AND lease_owner = ?`,
    params: [...Object.values(set), ref.tenantId, ref.runId, owner],
  };
}
