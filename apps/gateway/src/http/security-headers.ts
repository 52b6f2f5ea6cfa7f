import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
 * answers set the same request id again. One hook for both, and for `onNoRoute`: every hook is a
 * step of Fastify's hook runner on every request (ADR 022).
 *
 * `onNoRoute` may answer a request the router found no route for (`request.is404`) before the 404
 * handler runs and before its body is read; it returns true when it answered.
 */
export function useResponseHeaders(
  fastify: FastifyInstance,
  onNoRoute?: (request: FastifyRequest, reply: FastifyReply) => boolean,
): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const res = reply.raw;
    setSecurityHeaders(res);
    res.setHeader(REQUEST_ID_HEADER, request.id);
    // Answered: the hook chain stops here (Fastify: reply, and do not call done).
    if (onNoRoute && request.is404 && onNoRoute(request, reply)) return;
    done();
  });
}
