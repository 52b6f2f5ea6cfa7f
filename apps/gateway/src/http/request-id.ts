import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header a client (or a proxy in front of the gateway) may name its request with. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What a client-supplied request id may look like; anything else is replaced, never echoed. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId`: the client's `X-Request-Id` when it is a short token (so a trace id from a
 * proxy carries through the logs), otherwise a fresh UUID. An id is echoed in responses and
 * written to logs, so markup, control characters or kilobytes of text never become one.
 */
export function requestIdOf(req: IncomingMessage): string {
  const offered = req.headers[REQUEST_ID_HEADER];
  // The length check first keeps the regular expression off long headers.
  return typeof offered === 'string' && offered.length <= 128 && REQUEST_ID_PATTERN.test(offered)
    ? offered
    : randomUUID();
}
