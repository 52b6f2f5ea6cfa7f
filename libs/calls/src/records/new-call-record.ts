import { PLATFORM_TENANT } from '@toolgate/database';
import type { ApprovalMode, ToolCall } from '@toolgate/toolkit';
import type { NewCallRecord } from './call-transitions.js';
import { principalOf } from './stored-principal.js';

/** What a parked call keeps besides what every call records (ADR 007, ADR 019). */
export interface ParkedCall {
  readonly approvalId: string;
  /** The mode the gate asked in (an L3 tool always asks, whatever its binding says). */
  readonly approvalMode: ApprovalMode;
  /** The digest the approval is bound to (`actionDigest`). */
  readonly inputDigest: string;
  /** The trace the call was parked in; null when not tracing. */
  readonly traceparent: string | null;
  /** The input as the trail stores it (redacted, capped): what the record keeps once the call ends. */
  readonly inputRedacted: unknown;
}

/**
 * The record of a call as it enters `tool_calls`: started by the audit trail's sink, or parked by
 * the approval gate (then with its validated input — exactly what runs after approval). One
 * object literal with every field, the same shape either way (the per-call path, ADR 022).
 *
 * @example newCallRecord(call, instances.instanceId) // started, no approval
 * @example newCallRecord(call, instances.instanceId, { approvalId, approvalMode, inputDigest, traceparent, inputRedacted })
 */
export function newCallRecord(call: ToolCall, instanceId: string | null, parked?: ParkedCall): NewCallRecord {
  const r = call.request;
  return {
    tenantId: r.tenant?.id ?? PLATFORM_TENANT,
    callId: call.id,
    agentType: r.agentType,
    tool: call.tool.contract.name,
    implementation: call.tool.implementation.name,
    sessionId: call.ctx.session.id,
    idempotencyIdentity: r.idempotencyIdentity ?? null,
    principal: principalOf(r.principal),
    locale: r.locale,
    input: parked ? call.input : null,
    inputRedacted: parked ? parked.inputRedacted : null,
    inputDigest: parked ? parked.inputDigest : null,
    timeoutMs: call.tool.timeoutMs,
    approvalMode: parked ? parked.approvalMode : call.tool.approval,
    bindingVersion: call.tool.bindingVersion,
    approvalId: parked ? parked.approvalId : null,
    instanceId,
    face: r.face ?? null,
    traceparent: parked ? parked.traceparent : null,
  };
}
