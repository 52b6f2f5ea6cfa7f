import { createHmac } from 'node:crypto';

/** What an NC request signature covers. */
export interface NcSignedParts {
  readonly appKey: string;
  /** Epoch milliseconds, as a string, as sent in the timestamp header. */
  readonly timestamp: string;
  readonly method: string;
  readonly pathWithQuery: string;
  readonly body: string;
}

/**
 * HMAC-SHA256 (base64) over method, path, app key, timestamp and body, one per line. The secret
 * never travels; the timestamp bounds replays. Shared by the client and the demo simulator so
 * the two cannot drift apart.
 */
export function ncSignature(appSecret: string, parts: NcSignedParts): string {
  const canonical = [parts.method, parts.pathWithQuery, parts.appKey, parts.timestamp, parts.body].join('\n');
  return createHmac('sha256', appSecret).update(canonical).digest('base64');
}
