import { canonicalJson, sha256Hex } from '@toolgate/toolkit';
import type { AuditEventDraft } from '../audit-event.js';

/**
 * The canonical form of an event that its hash covers: every field except the storage id, the
 * process that wrote it and the hashes themselves. Timestamps at millisecond precision in ISO-8601
 * UTC, the precision both databases keep (DATETIME(3) on MariaDB), so recomputation is byte-exact.
 */
export function canonicalEvent(draft: AuditEventDraft, seq: number): string {
  return canonicalJson({
    v: 1,
    tenantId: draft.tenantId,
    seq,
    event: draft.event,
    callId: draft.callId,
    tool: draft.tool,
    implementation: draft.implementation,
    riskLevel: draft.riskLevel,
    agentType: draft.agentType,
    sessionId: draft.sessionId,
    actor: draft.actor,
    initiatorId: draft.initiatorId,
    approverId: draft.approverId,
    bindingVersion: draft.bindingVersion,
    definitionHash: draft.definitionHash,
    input: draft.input ?? null,
    outputSummary: draft.outputSummary,
    status: draft.status,
    code: draft.code,
    durationMs: draft.durationMs,
    details: draft.details,
    occurredAt: draft.occurredAt.toISOString(),
  });
}

/** The hash of an event: SHA-256 over the previous event's hash and the event's canonical form. */
export function eventHash(prevHash: string, draft: AuditEventDraft, seq: number): string {
  return sha256Hex(`${prevHash}\n${canonicalEvent(draft, seq)}`);
}
