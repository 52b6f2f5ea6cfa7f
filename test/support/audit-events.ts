import { draftEvent, type AuditEventDraft } from '@toolgate/audit';

/**
 * The hashed fields of an event, rebuilt from its API shape — what someone who reads the trail
 * and wants to forge a link would do. Tamper tests recompute hashes from it.
 */
export function draftFromApiEvent(e: any): AuditEventDraft {
  const { approver, occurredAt, ...fields } = e;
  return draftEvent({ ...fields, approverId: approver?.id ?? null, occurredAt: new Date(occurredAt) });
}
