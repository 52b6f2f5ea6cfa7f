import { canonicalJson, sha256Hex } from '@toolgate/toolkit';
import type { AuditEventDraft } from '../audit-event.js';

const J = JSON.stringify;

/**
 * The canonical form of an event that its hash covers: every field except the storage id, the
 * process that wrote it and the hashes themselves; keys sorted (the same text as `canonicalJson`
 * of those fields, written out in order because this runs for every event). Timestamps at
 * millisecond precision in ISO-8601 UTC, the precision both databases keep (DATETIME(3) on
 * MariaDB), so recomputation is byte-exact.
 */
export function canonicalEvent(d: AuditEventDraft, seq: number): string {
  return (
    `{"actor":${canonicalJson(d.actor)},"agentType":${J(d.agentType)},"approverId":${J(d.approverId)}` +
    `,"bindingVersion":${J(d.bindingVersion)},"callId":${J(d.callId)},"code":${J(d.code)}` +
    `,"definitionHash":${J(d.definitionHash)},"details":${canonicalJson(d.details)},"durationMs":${J(d.durationMs)}` +
    `,"event":${J(d.event)},"implementation":${J(d.implementation)},"initiatorId":${J(d.initiatorId)}` +
    `,"input":${canonicalJson(d.input ?? null)},"occurredAt":${J(d.occurredAt.toISOString())}` +
    `,"outputSummary":${canonicalJson(d.outputSummary)},"riskLevel":${J(d.riskLevel)},"seq":${seq}` +
    `,"sessionId":${J(d.sessionId)},"status":${J(d.status)},"tenantId":${J(d.tenantId)},"tool":${J(d.tool)},"v":1}`
  );
}

/** The hash of an event: SHA-256 over the previous event's hash and the event's canonical form. */
export function eventHash(prevHash: string, draft: AuditEventDraft, seq: number): string {
  return sha256Hex(`${prevHash}\n${canonicalEvent(draft, seq)}`);
}
