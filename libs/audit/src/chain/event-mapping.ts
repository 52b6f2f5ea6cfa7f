import { fromSqlDateTime } from '@toolgate/database';
import type { AuditEventRecord } from '../audit-event.js';
import type { AuditEventEntity } from '../entities/audit-event.entity.js';

/** A stored row as the domain sees it (and as its hash was computed). */
export function toRecord(e: AuditEventEntity): AuditEventRecord {
  return {
    id: String(e.id),
    tenantId: e.tenantId,
    seq: Number(e.seq),
    event: e.event as AuditEventRecord['event'],
    callId: e.callId,
    tool: e.tool,
    implementation: e.implementation,
    riskLevel: e.riskLevel,
    agentType: e.agentType,
    sessionId: e.sessionId,
    actor: { type: e.actorType as AuditEventRecord['actor']['type'], id: e.actorId },
    initiatorId: e.initiatorId,
    approverId: e.approverId,
    bindingVersion: e.bindingVersion === null ? null : Number(e.bindingVersion),
    definitionHash: e.definitionHash,
    input: e.input ?? null,
    outputSummary: e.outputSummary ?? null,
    status: e.status,
    code: e.code,
    durationMs: e.durationMs === null ? null : Number(e.durationMs),
    details: e.details ?? null,
    occurredAt: fromSqlDateTime(e.occurredAt),
    instanceId: e.instanceId,
    prevHash: e.prevHash,
    hash: e.hash,
  };
}

/** The public (CONTRACT.md) shape of an event. */
export function toApiEvent(r: AuditEventRecord) {
  return {
    id: r.id,
    tenantId: r.tenantId,
    seq: r.seq,
    callId: r.callId,
    event: r.event,
    tool: r.tool,
    implementation: r.implementation,
    riskLevel: r.riskLevel,
    agentType: r.agentType,
    sessionId: r.sessionId,
    actor: r.actor,
    initiatorId: r.initiatorId,
    ...(r.approverId ? { approver: { id: r.approverId } } : {}),
    bindingVersion: r.bindingVersion,
    definitionHash: r.definitionHash,
    input: r.input,
    outputSummary: r.outputSummary,
    status: r.status,
    code: r.code,
    durationMs: r.durationMs,
    details: r.details,
    occurredAt: r.occurredAt.toISOString(),
    prevHash: r.prevHash,
    hash: r.hash,
  };
}
export type ApiAuditEvent = ReturnType<typeof toApiEvent>;
