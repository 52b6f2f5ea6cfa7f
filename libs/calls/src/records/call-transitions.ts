import { jsonText, sealJson, toSqlDateTime, type WriteStatement as SqlStatement } from '@toolgate/database';
import type { CallFace } from '@toolgate/toolkit';
import type { CallStatus, DecidedBy, StoredPrincipal } from '../entities/tool-call.entity.js';

/** A call record's key: call ids are unique per tenant, and every statement names both. */
export interface CallRef {
  readonly tenantId: string;
  readonly callId: string;
}

/** The fields of a new call record (parked, or started without approval). */
export interface NewCallRecord extends CallRef {
  readonly agentType: string | null;
  readonly tool: string;
  readonly implementation: string;
  readonly sessionId: string;
  readonly idempotencyIdentity: string | null;
  readonly principal: StoredPrincipal;
  readonly locale: string;
  /** The validated input; kept only for parked calls (what runs after approval), until the call ends. */
  readonly input: unknown;
  /**
   * A parked call's input as the trail stores it (redacted, capped): what `input` becomes when the
   * call ends (ADR 036); null for calls that were not parked.
   */
  readonly inputRedacted: unknown;
  readonly inputDigest: string | null;
  readonly timeoutMs: number;
  readonly approvalMode: string;
  readonly bindingVersion: number | null;
  readonly approvalId: string | null;
  readonly instanceId: string | null;
  /** How the call came in (`rest`, `mcp`, `run`); an approved call runs later with the same. */
  readonly face: CallFace | null;
  /** The trace a parked call was parked in (ADR 019); null when not tracing or not parked. */
  readonly traceparent?: string | null;
}

const COLUMNS = [
  'call_id',
  'tenant_id',
  'agent_type',
  'tool',
  'implementation',
  'session_id',
  'idempotency_identity',
  'principal',
  'locale',
  'status',
  'input',
  'input_redacted',
  'input_digest',
  'timeout_ms',
  'approval_mode',
  'binding_version',
  'approval_id',
  'envelope',
  'instance_id',
  'face',
  'traceparent',
  'created_at',
  'updated_at',
] as const;
const INSERT = `INSERT INTO tool_calls (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;

function insertValues(r: NewCallRecord, status: CallStatus, at: Date, input = r.input): unknown[] {
  const t = toSqlDateTime(at);
  return [
    r.callId,
    r.tenantId,
    r.agentType,
    r.tool,
    r.implementation,
    r.sessionId,
    r.idempotencyIdentity,
    jsonText(r.principal),
    r.locale,
    status,
    // A parked call's raw input is sealed at rest until the call ends (ADR 036).
    jsonText(sealJson(input)),
    jsonText(r.inputRedacted),
    r.inputDigest,
    r.timeoutMs,
    r.approvalMode,
    r.bindingVersion,
    r.approvalId,
    null,
    r.instanceId,
    r.face,
    r.traceparent ?? null,
    t,
    t,
  ];
}

/** What a transition sets besides the status. */
interface TransitionFields {
  /** The call ends: its raw input gives way to the redacted copy kept beside it (ADR 036). */
  readonly ends?: boolean;
  readonly envelope?: unknown;
  readonly instanceId?: string;
  /** Who decided the call's approval (the denier, or the approver whose approval completed it). */
  readonly decidedBy?: DecidedBy | null;
}

function transition(
  ref: CallRef,
  from: readonly CallStatus[],
  to: CallStatus,
  fields: TransitionFields = {},
): SqlStatement {
  const sets = ['status = ?', 'updated_at = ?'];
  const params: unknown[] = [to, toSqlDateTime(new Date())];
  if (fields.ends) sets.push('input = input_redacted', 'input_redacted = NULL');
  if (fields.envelope !== undefined) {
    sets.push('envelope = ?');
    params.push(jsonText(fields.envelope));
  }
  if (fields.instanceId !== undefined) {
    sets.push('instance_id = ?');
    params.push(fields.instanceId);
  }
  if (fields.decidedBy !== undefined) {
    sets.push('decided_by = ?');
    params.push(jsonText(fields.decidedBy));
  }
  return {
    sql: `UPDATE tool_calls SET ${sets.join(', ')} WHERE tenant_id = ? AND call_id = ? AND status IN (${from.map(() => '?').join(', ')})`,
    params: [...params, ref.tenantId, ref.callId, ...from],
  };
}

/**
 * Every write to `tool_calls`, in one place and one technique (parameterised SQL that either runs
 * on its own or rides in the audit transaction of the event that tells the same story). Each
 * transition names the status it expects, so a stale or foreign writer changes nothing:
 *
 *   park → pending_approval ─ queue → queued ─ claim → running ─ finish → succeeded | failed
 *                          │                 └ refuse → failed      └ interrupt → interrupted
 *                          └ deny → denied   └ expire → expired
 *   start (no approval needed) → running
 *
 * Every transition into an end (succeeded, failed, denied, expired, interrupted) replaces the raw
 * input of a parked call with its redacted copy in the same statement, and takes an envelope the
 * caller has already redacted: nothing raw outlives the call (ADR 036).
 */
export const CallTransitions = {
  /** A call parked for approval. */
  park(record: NewCallRecord, at = new Date()): SqlStatement {
    return { sql: INSERT, params: insertValues(record, 'pending_approval', at) };
  },

  /**
   * A call that starts running. An approved call already has its record (claimed, `running`):
   * then nothing changes — the insert is skipped, never an overwrite of another record.
   */
  start(record: NewCallRecord, dialect: 'mysql' | 'sqlite', at = new Date()): SqlStatement {
    const params = insertValues(record, 'running', at, null);
    return dialect === 'mysql'
      ? { sql: `${INSERT} ON DUPLICATE KEY UPDATE call_id = call_id`, params }
      : { sql: `${INSERT} ON CONFLICT(tenant_id, call_id) DO NOTHING`, params };
  },

  /** Approved: waiting for a gateway to claim it. */
  queue: (ref: CallRef, decidedBy: DecidedBy) =>
    transition(ref, ['pending_approval'], 'queued', { decidedBy }),

  /**
   * Taken by one gateway: only one conditional update can move a call out of `queued`. It rides in
   * the transaction of the call's `started` event, guarded: a claim another gateway won rolls that
   * transaction back whole, so the loser writes no `started` and runs nothing (ADR 049).
   */
  claim: (ref: CallRef, instanceId: string): SqlStatement =>
    Object.assign(transition(ref, ['queued'], 'running', { instanceId }), { guard: true as const }),

  /** An approved call that will not run (its tool gone, its input changed, its key revoked). */
  refuse: (ref: CallRef, envelope: unknown) =>
    transition(ref, ['queued'], 'failed', { envelope, ends: true }),

  /** The call's outcome. */
  finish: (ref: CallRef, outcome: 'succeeded' | 'failed', envelope: unknown) =>
    transition(ref, ['running'], outcome, { envelope, ends: true }),

  deny: (ref: CallRef, envelope: unknown, decidedBy: DecidedBy | null = null) =>
    transition(ref, ['pending_approval'], 'denied', {
      envelope,
      ends: true,
      ...(decidedBy ? { decidedBy } : {}),
    }),

  expire: (ref: CallRef, envelope: unknown) =>
    transition(ref, ['pending_approval'], 'expired', { envelope, ends: true }),

  /** Its gateway died: the outcome is unknown. */
  interrupt: (ref: CallRef, envelope: unknown) =>
    transition(ref, ['running', 'queued'], 'interrupted', { envelope, ends: true }),
} as const;
