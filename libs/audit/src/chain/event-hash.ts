import { createHash, createHmac } from 'node:crypto';
import { canonicalJson } from '@toolgate/toolkit';
import type { AuditEventDraft, AuditEventRecord } from '../audit-fields.js';
import type { CryptoSuite } from './crypto-suite.js';

/** JSON text of a scalar field (most are null in any one event). */
const J = (v: unknown): string => (v === null ? 'null' : JSON.stringify(v));

/**
 * The version of an event's canonical form, and with it the formula of its link — the event's
 * algorithm id, inside the text its hash covers, so it cannot be changed without breaking the link:
 * 1 — `SHA-256(prevHash + "\n" + canonical)`, written before the chain was keyed (ADR 009);
 * 2 — `HMAC-SHA256(chainKey, prevHash + "\n" + canonical)`, the `standard` suite;
 * 3 — `HMAC-SM3(smChainKey, prevHash + "\n" + canonical)`, the `sm` suite (ADR 040).
 */
export type LinkVersion = 1 | 2 | 3;

/** The name of each link version's algorithm, for views and documents. */
export const LINK_ALGORITHMS = {
  1: 'sha256',
  2: 'hmac-sha256',
  3: 'hmac-sm3',
} as const satisfies Record<LinkVersion, string>;

/** The link version a suite writes. */
export const linkVersionFor = (suite: CryptoSuite): 2 | 3 => (suite === 'sm' ? 3 : 2);

/** Whether a link version is keyed (v2, v3): after one, an unkeyed link is a forgery (ADR 009). */
export const isKeyedLink = (v: LinkVersion | null): boolean => v === 2 || v === 3;

/** The keys of keyed links, both derived from the audit secret (a chain may hold both kinds). */
export interface LinkKeys {
  /** HMAC-SHA256 key of v2 links (`deriveChainKey`). */
  readonly sha256: Buffer;
  /** HMAC-SM3 key of v3 links (`deriveSmChainKey`). */
  readonly sm3: Buffer;
}

/** The context the chain key is derived under; the fingerprint keys use `tenant:<id>` instead. */
export const CHAIN_KEY_CONTEXT = 'toolgate/audit-chain/v2';

/** The context of the HMAC-SM3 chain key (v3 links): derived with SM3 as well, for a 密评. */
export const SM_CHAIN_KEY_CONTEXT = 'toolgate/audit-chain/v3';

/**
 * The key of every chain link, derived from the audit secret that lives outside the database.
 * Domain separation keeps it apart from the redaction fingerprint keys derived from the same secret.
 * @example deriveChainKey(process.env.TOOLGATE_AUDIT_SECRET!) // 32 bytes
 */
export function deriveChainKey(auditSecret: string): Buffer {
  return createHmac('sha256', auditSecret).update(CHAIN_KEY_CONTEXT).digest();
}

/**
 * The key of v3 links: HMAC-SM3 of the audit secret under its own context, so that an SM chain
 * uses no SHA-256 anywhere (ADR 040). Derived whatever the suite: a chain that switched holds both.
 */
export function deriveSmChainKey(auditSecret: string): Buffer {
  return createHmac('sm3', auditSecret).update(SM_CHAIN_KEY_CONTEXT).digest();
}

/** Both link keys from the audit secret. */
export function deriveLinkKeys(auditSecret: string): LinkKeys {
  return { sha256: deriveChainKey(auditSecret), sm3: deriveSmChainKey(auditSecret) };
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
const keyedSm3 = (smChainKey: Buffer, text: string) =>
  createHmac('sm3', smChainKey).update(text).digest('hex');
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
 * The hash of an event written under the `sm` suite (v3): HMAC-SM3 under the SM chain key over the
 * same text as v2 but for its version (ADR 040).
 */
export function smEventHash(
  smChainKey: Buffer,
  prevHash: string,
  draft: AuditEventDraft,
  seq: number,
): string {
  return keyedSm3(smChainKey, `${prevHash}\n${canonicalEvent(draft, seq, 3)}`);
}

/** The hash of an event with the link version its writer's suite uses. */
export function linkHash(
  keys: LinkKeys,
  version: 2 | 3,
  prevHash: string,
  draft: AuditEventDraft,
  seq: number,
): string {
  return version === 3
    ? smEventHash(keys.sm3, prevHash, draft, seq)
    : eventHash(keys.sha256, prevHash, draft, seq);
}

/**
 * The hash of a legacy (v1) event: plain SHA-256, which anyone can recompute. Only verified, never
 * written: it accepts chains written before the chain was keyed.
 */
export function unkeyedEventHash(prevHash: string, draft: AuditEventDraft, seq: number): string {
  return unkeyed(`${prevHash}\n${canonicalEvent(draft, seq, 1)}`);
}

/**
 * Which formula produced a stored event's hash — keyed ones tried first (`first`, then the other),
 * since that is what every event written now has — or null when none does (the event was
 * modified, or forged without the key).
 */
export function linkVersionOf(
  keys: LinkKeys,
  e: AuditEventRecord,
  first: LinkVersion = 2,
): LinkVersion | null {
  return linkOf(keys, e, first).version;
}

/**
 * `linkVersionOf`, and the event's public canonical form (`publicCanonical`) built from the same
 * text, so a walk that also keeps the public digest (ADR 030) serializes each event once. A walk
 * passes the version of the event before as `first`: a chain written under one suite then costs
 * one HMAC per event, whichever suite.
 */
export function linkOf(
  keys: LinkKeys,
  e: AuditEventRecord,
  first: LinkVersion = 2,
): { version: LinkVersion | null; canonical: string } {
  const body = canonicalWithoutVersion(e, e.seq);
  const canonical = `${body.slice(0, -VERSION_TAIL.length)}}`;
  const text = `${e.prevHash}\n${body}`;
  const sm = () => keyedSm3(keys.sm3, `${text}3}`) === e.hash;
  const sha = () => keyed(keys.sha256, `${text}2}`) === e.hash;
  if (first === 3 ? sm() : sha()) return { version: first === 3 ? 3 : 2, canonical };
  if (first === 3 ? sha() : sm()) return { version: first === 3 ? 2 : 3, canonical };
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
