import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import type { ValueTransformer } from 'typeorm';

/**
 * Raw personal data exists only while a call or run may still go on (ADR 036): a parked call's
 * input, a live run's question, turns and results. Even then it is never written in clear — a
 * database file, its SQLite WAL and freed pages keep old bytes long after a row changed — but
 * sealed with AES-256-GCM under a key that lives outside the database (derived from the audit
 * secret). When the call or run ends, the sealed raw form gives way to the redacted one.
 *
 * The keys form one ring per process: gateways sharing a database share the audit secret, and two
 * gateways in one process (tests) may open each other's values. The key that seals is the last one
 * added; every added key opens. Without a key, values are written as they are (libs' own specs).
 */
const PREFIX = 'tg1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_CHARS = 8;

interface RingKey {
  readonly id: string;
  readonly key: Buffer;
}

const ring = new Map<string, RingKey>();
let sealing: RingKey | undefined;

/** The in-flight data key of a deployment, derived from its audit secret under a context of its own. */
export function deriveInFlightKey(auditSecret: string): Buffer {
  return createHmac('sha256', auditSecret).update('toolgate/in-flight-data/v1').digest();
}

/** Adds a 32-byte key to the process's ring; it seals from now on. */
export function addInFlightKey(key: Buffer): void {
  if (key.length !== 32) throw new Error('an in-flight data key is 32 bytes');
  const id = createHash('sha256').update(key).digest('hex').slice(0, KEY_ID_CHARS);
  const entry = { id, key };
  ring.set(id, entry);
  sealing = entry;
}

/** Empties the ring (specs only: a spec that added keys leaves its worker as it found it). */
export function forgetInFlightKeys(): void {
  ring.clear();
  sealing = undefined;
}

/** `text` sealed for storage (`tg1:<key id>:<base64 iv|tag|ciphertext>`), or as it is without a key. */
export function sealText(text: string): string {
  if (!sealing) return text;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealing.key, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return `${PREFIX}${sealing.id}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

/** Whether a stored value is sealed (and so must be opened before use). */
export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

/**
 * The text a sealed value holds. A value not sealed is returned as it is (rows written before
 * sealing, or without a key); a sealed value whose key this process lacks cannot be opened: error.
 */
export function openText(value: string): string {
  if (!isSealed(value)) return value;
  const colon = value.indexOf(':', PREFIX.length);
  const key = ring.get(value.slice(PREFIX.length, colon));
  if (!key)
    throw new Error(
      'sealed in-flight data under a key this gateway does not hold (TOOLGATE_AUDIT_SECRET differs)',
    );
  const raw = Buffer.from(value.slice(colon + 1), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key.key, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}

/** A JSON value sealed as a JSON string (what a JSON column then holds); null and undefined stay null. */
export function sealJson(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return sealing ? sealText(JSON.stringify(value)) : (value as string);
}

/** The JSON value a sealed JSON column holds; anything not sealed as it is. */
export function openJson(value: unknown): unknown {
  return isSealed(value) ? JSON.parse(openText(value)) : value;
}

/**
 * Column transformers of in-flight data: entities write sealed values and read them opened.
 * Raw SQL writers seal with `sealText` / `sealJson` themselves.
 */
export const inFlightText: ValueTransformer = {
  to: (v: unknown) => (typeof v === 'string' ? sealText(v) : v),
  from: (v: unknown) => (isSealed(v) ? openText(v) : v),
};
export const inFlightJson: ValueTransformer = {
  to: (v: unknown) => (v === null || v === undefined || !sealing ? v : sealText(JSON.stringify(v))),
  from: openJson,
};
