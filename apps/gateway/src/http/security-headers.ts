import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

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

/** Sets SECURITY_HEADERS on every response, before routing, errors and 404s included. */
export function useSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (_request, reply, done) => {
    setSecurityHeaders(reply.raw);
    done();
  });
}
