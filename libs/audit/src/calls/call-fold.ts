import type { AuditEventRecord } from '../audit-fields.js';

/** A call's state as `GET /v1/calls/:callId` words it (CALL_STATUSES). */
export type CallState =
  'pending_approval' | 'running' | 'succeeded' | 'failed' | 'denied' | 'expired' | 'interrupted';

/** One approver's decision, as the call row keeps it. */
export interface ApproverEntry {
  readonly type: 'api_key' | 'user' | 'system';
  readonly id: string;
  /** The name the decision event states (persons and keys alike); null when it states none. */
  readonly name: string | null;
  readonly decision: 'approve' | 'deny';
  readonly decidedAt: string;
}

/** A row of `audit_calls`: everything the trail says about one call, folded from its events. */
export interface CallRow {
  tenantId: string;
  callId: string;
  agentType: string | null;
  tool: string | null;
  implementation: string | null;
  riskLevel: string | null;
  face: 'rest' | 'mcp' | 'run' | null;
  target: string | null;
  input: unknown;
  state: CallState;
  status: 'ok' | 'error' | null;
  code: string | null;
  requesterType: 'api_key' | 'user' | 'system' | null;
  requesterId: string | null;
  approvers: ApproverEntry[];
  requestedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  durationMs: number | null;
  runId: string | null;
  sessionId: string | null;
  events: number;
  firstSeq: number;
  lastSeq: number;
}

/** A name the trail states for a key or a person (key_created, a decision's approver). */
export interface NamedPrincipal {
  readonly tenantId: string;
  readonly id: string;
  readonly type: 'api_key' | 'user';
  readonly name: string;
  readonly seq: number;
}

/** Events that belong to a call's row. */
const CALL_EVENTS = new Set([
  'approval_requested',
  'approval_decided',
  'started',
  'finished',
  'accessed',
  'not_executed',
  'interrupted',
  'late_completion',
  'access_denied',
]);

/** Width of `audit_calls.target` and `audit_call_terms.term`. */
export const TARGET_MAX = 255;
export const TERM_MAX = 300;

const FACES = new Set(['rest', 'mcp', 'run']);
const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Whether an event is one of a call's (and so changes its row). */
export function isCallEvent(e: AuditEventRecord): boolean {
  return e.callId !== null && CALL_EVENTS.has(e.event);
}

/** A key field's value as a target shows it: scalars only (a redacted value shows redacted). */
function scalar(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

/**
 * The declared key fields of a call's (redacted) input and their values, in declaration order.
 * @example keyValues({ service: 'payment-api', reason: '…' }, ['service']) // [['service', 'payment-api']]
 */
export function keyValues(input: unknown, keyFields: readonly string[]): [string, string][] {
  const fields = record(input);
  const out: [string, string][] = [];
  for (const f of keyFields) {
    const v = scalar(fields[f]);
    if (v !== null) out.push([f, v]);
  }
  return out;
}

/** The target summary: `service=payment-api`, fields joined by a space; null without key fields. */
export function targetOf(input: unknown, keyFields: readonly string[]): string | null {
  const pairs = keyValues(input, keyFields);
  if (!pairs.length) return null;
  return pairs
    .map(([f, v]) => `${f}=${v}`)
    .join(' ')
    .slice(0, TARGET_MAX);
}

/**
 * The terms a call is found by (`audit_call_terms`): each person by id — `person:` for any role,
 * `requester:` and `approver:` for one — and each declared key field's value, with its field
 * (`input:service=payment-api`) and without (`target:payment-api`).
 */
export function termsOf(row: CallRow, keyFields: readonly string[]): string[] {
  const terms = new Set<string>();
  if (row.requesterId) terms.add(`requester:${row.requesterId}`).add(`person:${row.requesterId}`);
  for (const a of row.approvers) terms.add(`approver:${a.id}`).add(`person:${a.id}`);
  for (const [f, v] of keyValues(row.input, keyFields)) terms.add(`input:${f}=${v}`).add(`target:${v}`);
  return [...terms].filter((t) => t.length <= TERM_MAX);
}

function blank(e: AuditEventRecord): CallRow {
  return {
    tenantId: e.tenantId,
    callId: e.callId!,
    agentType: null,
    tool: null,
    implementation: null,
    riskLevel: null,
    face: null,
    target: null,
    input: null,
    state: 'running',
    status: null,
    code: null,
    requesterType: null,
    requesterId: null,
    approvers: [],
    requestedAt: e.occurredAt,
    startedAt: null,
    finishedAt: null,
    durationMs: null,
    runId: null,
    sessionId: null,
    events: 0,
    firstSeq: e.seq,
    lastSeq: e.seq,
  };
}

/** Ends the call with an outcome. */
function close(row: CallRow, e: AuditEventRecord, state: CallState, code: string | null): void {
  row.state = state;
  row.status = state === 'succeeded' ? 'ok' : 'error';
  row.code = code;
  row.finishedAt = e.occurredAt;
}

function decide(row: CallRow, e: AuditEventRecord, details: Record<string, unknown>): void {
  const decision = details.decision;
  const approver = record(details.approver);
  if (decision === 'approve' || decision === 'deny') {
    const id = e.approverId ?? text(approver.id) ?? e.actor.id;
    if (!row.approvers.some((a) => a.id === id))
      row.approvers.push({
        type: approver.type === 'user' ? 'user' : e.actor.type,
        id,
        name: text(approver.name),
        decision,
        decidedAt: e.occurredAt.toISOString(),
      });
  }
  const outcome = details.outcome;
  if (outcome === 'denied') close(row, e, 'denied', 'APPROVAL_DENIED');
  else if (outcome === 'expired') close(row, e, 'expired', 'APPROVAL_EXPIRED');
  else if (outcome === 'approved' && row.state === 'pending_approval') row.state = 'running';
}

/**
 * Folds one event of a call into its row (a new row when `row` is undefined). Events arrive in
 * chain order; applying the same events again gives the same row, so the projection can always
 * be rebuilt from the trail.
 */
export function foldCallEvent(row: CallRow | undefined, e: AuditEventRecord): CallRow {
  const r = row ?? blank(e);
  const details = record(e.details);
  r.events++;
  r.lastSeq = Math.max(r.lastSeq, e.seq);
  r.firstSeq = Math.min(r.firstSeq, e.seq);
  if (e.occurredAt < r.requestedAt) r.requestedAt = e.occurredAt;
  r.tool ??= e.tool;
  r.implementation ??= e.implementation;
  r.riskLevel ??= e.riskLevel;
  r.agentType ??= e.agentType;
  r.sessionId ??= e.sessionId;
  r.runId ??= text(details.runId);
  const face = text(details.face) ?? (r.runId ? 'run' : null);
  if (!r.face && face && FACES.has(face)) r.face = face as CallRow['face'];
  // Who asked: the event's actor, or for a call the platform runs on someone's behalf (an
  // approved call resumed by a runner) the key that started it.
  const requester = () => {
    if (r.requesterId) return;
    const byActor = e.actor.type !== 'system' || !e.initiatorId;
    r.requesterId = byActor ? e.actor.id : e.initiatorId;
    r.requesterType = byActor ? e.actor.type : 'api_key';
  };
  switch (e.event) {
    case 'approval_requested':
      requester();
      r.input ??= e.input;
      r.state = 'pending_approval';
      break;
    case 'approval_decided':
      decide(r, e, details);
      break;
    case 'started':
      requester();
      if (e.input !== null && e.input !== undefined) r.input = e.input;
      r.startedAt = e.occurredAt;
      if (r.state === 'pending_approval') r.state = 'running';
      break;
    case 'finished':
      close(r, e, e.status === 'ok' ? 'succeeded' : 'failed', e.status === 'ok' ? null : e.code);
      r.durationMs = e.durationMs;
      break;
    case 'accessed':
      // An L0 call's one event: its start, input and outcome together.
      requester();
      if (e.input !== null && e.input !== undefined) r.input = e.input;
      r.startedAt = e.occurredAt;
      close(r, e, e.status === 'ok' ? 'succeeded' : 'failed', e.status === 'ok' ? null : e.code);
      r.durationMs = e.durationMs;
      break;
    case 'not_executed':
      close(r, e, 'failed', e.code);
      break;
    case 'interrupted':
      close(r, e, 'interrupted', e.code ?? 'INTERRUPTED');
      break;
    case 'access_denied':
      requester();
      r.input ??= e.input;
      close(r, e, 'failed', e.code);
      break;
    default:
      break; // late_completion: the call's outcome was already answered; its events say the rest
  }
  return r;
}

/** Names an event states for keys and people, for `audit_principals`. */
export function principalsOf(e: AuditEventRecord): NamedPrincipal[] {
  const details = record(e.details);
  if (e.event === 'key_created') {
    const id = text(details.keyId);
    const name = text(details.name);
    return id && name ? [{ tenantId: e.tenantId, id, type: 'api_key', name, seq: e.seq }] : [];
  }
  if (e.event === 'approval_decided') {
    const approver = record(details.approver);
    const id = text(approver.id);
    const name = text(approver.name);
    const type = approver.type === 'user' ? 'user' : 'api_key';
    return id && name ? [{ tenantId: e.tenantId, id, type, name, seq: e.seq }] : [];
  }
  return [];
}
