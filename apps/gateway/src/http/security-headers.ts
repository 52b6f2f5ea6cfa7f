import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { REQUEST_ID_HEADER } from './request-id.js';

/**
 * Headers every response carries, API and console alike: no MIME sniffing, never framed, no
 * Referer leaving the gateway. Constant, so a hook can set them without building anything.
 */
export const SECURITY_HEADERS: readonly (readonly [name: string, value: string])[] = [
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
  ['referrer-policy', 'no-referrer'],
];

/**
 * Sets SECURITY_HEADERS on a raw response. On the raw response rather than the reply, so that
 * answers written to it directly (server-sent events, streamed exports) carry them too.
 */
export function setSecurityHeaders(res: ServerResponse): void {
  for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
}

/**
 * Sets SECURITY_HEADERS and X-Request-Id (CONTRACT.md: every answer names its request, successes
 * too) on every response, before routing, errors and 404s included. On the raw response, so that
 * answers written to it directly (server-sent events, streamed exports) carry them as well; error
 * answers set the same request id again. One hook for both: every hook is a step of Fastify's hook
 * runner on every request.
 */
export function useResponseHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const res = reply.raw;
    setSecurityHeaders(res);
    res.setHeader(REQUEST_ID_HEADER, request.id);
    done();
  });
}
