import { createDecipheriv, createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** The request headers Feishu signs callbacks with. */
export interface FeishuCallbackHeaders {
  readonly timestamp?: string;
  readonly nonce?: string;
  readonly signature?: string;
}

/**
 * Feishu's callback signature: hex SHA-256 of `timestamp + nonce + encryptKey + rawBody` (the
 * `X-Lark-Request-Timestamp`, `X-Lark-Request-Nonce` headers, the app's Encrypt Key, and the body
 * bytes as sent), compared with `X-Lark-Signature`.
 */
export function feishuCallbackSignature(
  timestamp: string,
  nonce: string,
  encryptKey: string,
  rawBody: Buffer,
): string {
  return createHash('sha256').update(`${timestamp}${nonce}${encryptKey}`).update(rawBody).digest('hex');
}

export function signatureMatches(h: FeishuCallbackHeaders, encryptKey: string, rawBody: Buffer): boolean {
  if (!h.timestamp || !h.nonce || !h.signature) return false;
  const expected = Buffer.from(feishuCallbackSignature(h.timestamp, h.nonce, encryptKey, rawBody));
  const given = Buffer.from(h.signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * An encrypted callback body (`{"encrypt": "<base64>"}`): AES-256-CBC under SHA-256 of the Encrypt
 * Key, the first 16 bytes being the IV, PKCS#7 padding. Throws on anything that does not decrypt.
 */
export function decryptFeishu(encrypted: string, encryptKey: string): string {
  const data = Buffer.from(encrypted, 'base64');
  if (data.length < 32) throw new Error('encrypted body too short');
  const key = createHash('sha256').update(encryptKey).digest();
  const decipher = createDecipheriv('aes-256-cbc', key, data.subarray(0, 16));
  return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]).toString('utf8');
}

const decideValue = z.object({
  toolgate: z.literal('decide'),
  tenantId: z.string().max(64),
  approvalId: z.string().min(1).max(64),
  decision: z.enum(['approve', 'deny']),
});

/**
 * The parts of a callback Toolgate reads: the `card.action.trigger` (schema 2.0) shape
 * `{schema, header: {event_id, token, event_type}, event: {operator: {open_id, user_id}, action:
 * {value}}}`, the older card callback `{open_id, user_id, token, action: {value}}`, and the URL
 * check `{type: "url_verification", challenge, token}`.
 */
const callbackSchema = z.object({
  type: z.string().optional(),
  challenge: z.string().max(256).optional(),
  token: z.string().max(256).optional(),
  open_id: z.string().max(128).optional(),
  user_id: z.string().max(128).optional(),
  action: z.object({ value: z.unknown() }).optional(),
  header: z
    .object({
      event_id: z.string().max(128).optional(),
      token: z.string().max(256).optional(),
      event_type: z.string().optional(),
    })
    .optional(),
  event: z
    .object({
      operator: z
        .object({ open_id: z.string().max(128).optional(), user_id: z.string().max(128).optional() })
        .optional(),
      action: z.object({ value: z.unknown() }).optional(),
    })
    .optional(),
});

/** A callback, read. */
export interface FeishuCallback {
  readonly challenge?: string;
  readonly token?: string;
  readonly eventId?: string;
  readonly openId?: string;
  readonly userId?: string;
  /** The button's value when it is one of Toolgate's decide buttons. */
  readonly decide?: z.infer<typeof decideValue>;
}

/** Reads a decrypted callback body; null when it is none of the shapes above. */
export function readFeishuCallback(body: unknown): FeishuCallback | null {
  const parsed = callbackSchema.safeParse(body);
  if (!parsed.success) return null;
  const b = parsed.data;
  if (b.type === 'url_verification') return { challenge: b.challenge ?? '', token: b.token };
  let value = b.event?.action?.value ?? b.action?.value;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      value = undefined;
    }
  }
  const decide = decideValue.safeParse(value);
  return {
    token: b.header?.token ?? b.token,
    eventId: b.header?.event_id,
    openId: b.event?.operator?.open_id ?? b.open_id,
    userId: b.event?.operator?.user_id ?? b.user_id,
    ...(decide.success ? { decide: decide.data } : {}),
  };
}
