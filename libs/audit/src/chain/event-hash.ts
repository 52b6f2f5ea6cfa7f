import { createHash, createHmac } from 'node:crypto';
import { canonicalJson } from '@toolgate/toolkit';
import type { AuditEventDraft, AuditEventRecord } from '../audit-fields.js';

/** JSON text of a scalar field (most are null in any one event). */
const J = (v: unknown): string => (v === null ? 'null' : JSON.stringify(v));

/**
 * The version of an event's canonical form, and with it the formula of its link (ADR 009):
 * 1 — `SHA-256(prevHash + "\n" + canonical)`, written before the chain was keyed;
 * 2 — `HMAC-SHA256(chainKey, prevHash + "\n" + canonical)`, what the gateway writes now.
 */
export type LinkVersion = 1 | 2;

/** The context the chain key is derived under; the fingerprint keys use `tenant:<id>` instead. */
export const CHAIN_KEY_CONTEXT = 'toolgate/audit-chain/v2';

/**
 * The key of every chain link, derived from the audit secret that lives outside the database.
 * Domain separation keeps it apart from the redaction fingerprint keys derived from the same secret.
 * @example deriveChainKey(process.env.TOOLGATE_AUDIT_SECRET!) // 32 bytes
 */
export function deriveChainKey(auditSecret: string): Buffer {
  return createHmac('sha256', auditSecret).update(CHAIN_KEY_CONTEXT).digest();
}

/** The canonical form without its closing version field, shared by both link formulas. */
function canonicalWithoutVersion(d: AuditEventDraft, seq: number): string {
  return (
    `{"actor":${canonicalJson(d.actor)},"agentType":${J(d.agentType)},"approverId":${J(d.approverId)}` +
    `,"bindingVersion":${J(d.bindingVersion)},"callId":${J(d.callId)},"code":${J(d.code)}` +
    `,"definitionHash":${J(d.definitionHash)},"details":${canonicalJson(d.details)},"durationMs":${J(d.durationMs)}` +
    `,"event":${J(d.event)},"implementation":${J(d.implementation)},"initiatorId":${J(d.initiatorId)}` +
    `,"input":${canonicalJson(d.input ?? null)},"occurredAt":${J(d.occurredAt.toISOString())}` +
    `,"outputSummary":${canonicalJson(d.outputSummary)},"riskLevel":${J(d.riskLevel)},"seq":${seq}` +
    `,"sessionId":${J(d.sessionId)},"status":${J(d.status)},"tenantId":${J(d.tenantId)},"tool":${J(d.tool)},"v":`
  );
}

/**
 * The canonical form of an event that its hash covers: every field except the storage id, the
 * process that wrote it and the hashes themselves; keys sorted (the same text as `canonicalJson`
 * of those fields plus `v`, written out in order because this runs for every event). Timestamps at
 * millisecond precision in ISO-8601 UTC, the precision both databases keep (DATETIME(3) on
 * MariaDB), so recomputation is byte-exact.
 */
export function canonicalEvent(d: AuditEventDraft, seq: number, version: LinkVersion = 2): string {
  return `${canonicalWithoutVersion(d, seq)}${version}}`;
}

const keyed = (chainKey: Buffer, text: string) => createHmac('sha256', chainKey).update(text).digest('hex');
const unkeyed = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The hash of an event as the gateway writes it (v2): HMAC-SHA256 under the chain key over the
 * previous event's hash and the event's canonical form. Without the key nobody can make a link
 * that verifies, so database access alone cannot extend or re-hash the chain.
 */
export function eventHash(chainKey: Buffer, prevHash: string, draft: AuditEventDraft, seq: number): string {
  return keyed(chainKey, `${prevHash}\n${canonicalEvent(draft, seq, 2)}`);
}

/**
 * The hash of a legacy (v1) event: plain SHA-256, which anyone can recompute. Only verified, never
 * written: it accepts chains written before the chain was keyed.
 */
export function unkeyedEventHash(prevHash: string, draft: AuditEventDraft, seq: number): string {
  return unkeyed(`${prevHash}\n${canonicalEvent(draft, seq, 1)}`);
}

/**
 * Which formula produced a stored event's hash — keyed tried first, since that is what every event
 * written now has — or null when neither does (the event was modified, or forged without the key).
 */
export function linkVersionOf(chainKey: Buffer, e: AuditEventRecord): LinkVersion | null {
  return linkOf(chainKey, e).version;
}

/**
 * `linkVersionOf`, and the event's public canonical form (`publicCanonical`) built from the same
 * text, so a walk that also keeps the public digest (ADR 030) serializes each event once.
 */
export function linkOf(
  chainKey: Buffer,
  e: AuditEventRecord,
): { version: LinkVersion | null; canonical: string } {
  const body = canonicalWithoutVersion(e, e.seq);
  const canonical = `${body.slice(0, -VERSION_TAIL.length)}}`;
  const text = `${e.prevHash}\n${body}`;
  if (keyed(chainKey, `${text}2}`) === e.hash) return { version: 2, canonical };
  if (unkeyed(`${text}1}`) === e.hash) return { version: 1, canonical };
  return { version: null, canonical };
}

const VERSION_TAIL = ',"v":';

/**
 * The public canonical form of an event (ADR 030): `canonicalJson` of its hashed fields without the
 * link version `v` — what anyone can rebuild from an exported event, keyed link or not.
 */
export function publicCanonical(d: AuditEventDraft, seq: number): string {
  return `${canonicalWithoutVersion(d, seq).slice(0, -VERSION_TAIL.length)}}`;
}
