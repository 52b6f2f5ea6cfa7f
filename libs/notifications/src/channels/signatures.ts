import { createHmac } from 'node:crypto';

/**
 * Toolgate's own webhook signature: hex HMAC-SHA256 of `<timestamp>.<body>` under the channel's
 * secret, sent as `X-Toolgate-Signature: sha256=<hex>` with `X-Toolgate-Timestamp: <unix seconds>`.
 */
export function toolgateSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * DingTalk group robot (加签): base64 HMAC-SHA256 of `<timestamp ms>\n<secret>` keyed with the
 * secret; sent URL-encoded as the `sign` query parameter next to `timestamp`.
 */
export function dingtalkSign(secret: string, timestampMs: string): string {
  return createHmac('sha256', secret).update(`${timestampMs}\n${secret}`).digest('base64');
}

/**
 * Feishu/Lark custom bot (签名校验): `<timestamp s>\n<secret>` is the HMAC-SHA256 *key* over an
 * empty message, base64; sent as `timestamp` and `sign` in the JSON body.
 */
export function feishuBotSign(secret: string, timestampS: string): string {
  return createHmac('sha256', `${timestampS}\n${secret}`).update('').digest('base64');
}
