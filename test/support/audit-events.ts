import type { AuditEventDraft } from '@toolgate/audit';

/**
 * The hashed fields of an event, rebuilt from its API shape — what someone who reads the trail
 * and wants to forge a link would do. Tamper tests recompute hashes from it.
 */
export function draftFromApiEvent(e: any): AuditEventDraft {
  return {
    tenantId: e.tenantId,
    event: e.event,
    callId: e.callId,
    tool: e.tool,
    implementation: e.implementation,
    riskLevel: e.riskLevel,
    agentType: e.agentType,
    sessionId: e.sessionId,
    actor: e.actor,
    initiatorId: e.initiatorId,
    approverId: e.approver?.id ?? null,
    bindingVersion: e.bindingVersion,
    definitionHash: e.definitionHash,
    input: e.input,
    outputSummary: e.outputSummary,
    status: e.status,
    code: e.code,
    durationMs: e.durationMs,
    details: e.details,
    occurredAt: new Date(e.occurredAt),
    instanceId: null,
  };
}
