import { MethodNotAllowedException } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import FindMyWay from 'find-my-way';
import { sendError } from './error-reply.js';

/**
 * Route config of a route that exists only to refuse its method with a 405 of its own (the MCP
 * endpoint's GET and DELETE): its method is not one the path allows, so `Allow` leaves it out.
 */
export const REFUSES_METHOD = Object.freeze({ refusesMethod: true });

/** The order `Allow` lists methods in: the usual ones first, then any other alphabetically. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const rank = (method: string) => {
  const i = METHOD_ORDER.indexOf(method);
  return i < 0 ? METHOD_ORDER.length : i;
};
const byRank = (a: string, b: string) => rank(a) - rank(b) || a.localeCompare(b);

/**
 * The methods each path declares, as a second find-my-way router fed by Fastify's `onRoute`: the
 * same router library with the same options, holding every declared route but no handler. Asked
 * only when the real router found no route for a request's method, so it costs nothing on the
 * routes that exist.
 */
class DeclaredMethods {
  private readonly router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;
  private readonly methods = new Set<FindMyWay.HTTPMethod>();

  constructor(fastify: FastifyInstance) {
    const c = fastify.initialConfig;
    this.router = FindMyWay({
      caseSensitive: c.caseSensitive,
      ignoreTrailingSlash: c.ignoreTrailingSlash,
      ignoreDuplicateSlashes: c.ignoreDuplicateSlashes,
      allowUnsafeRegex: c.allowUnsafeRegex,
      // A path whose parameter is too long for its own method (414 there) is still the resource.
      maxParamLength: Number.MAX_SAFE_INTEGER,
    });
  }

  add(method: HTTPMethods | HTTPMethods[], url: string): void {
    for (const name of Array.isArray(method) ? method : [method]) {
      // Fastify hands the methods to onRoute upper-cased; the type also allows lower case.
      const m = name.toUpperCase() as FindMyWay.HTTPMethod;
      // One route per method and path here, whatever constraints the real router tells apart by.
      if (this.router.hasRoute(m, url)) continue;
      this.router.on(m, url, () => undefined);
      this.methods.add(m);
    }
  }

  /** The methods the path of `url` declares, in `Allow` order; empty when no route has the path. */
  allowedFor(url: string): string[] {
    return [...this.methods].filter((m) => this.router.find(m, url) !== null).sort(byRank);
  }
}

/**
 * Learns every route's methods as they are registered (so call it before any route is), and
 * answers for a request no route matched: a method the path does not declare gets 405 with `Allow`
 * listing the methods it does (RFC 9110 §15.5.6) and the INVALID_INPUT envelope of a request the
 * server cannot serve (docs/CONTRACT.md). Returns false, answering nothing, for a path no route has
 * (it stays 404). Meant for `useResponseHeaders`' `onNoRoute`: no hook of its own on every request.
 */
export function methodNotAllowed(
  fastify: FastifyInstance,
  bodyLimit: number,
): (request: FastifyRequest, reply: FastifyReply) => boolean {
  const declared = new DeclaredMethods(fastify);
  fastify.addHook('onRoute', (route) => {
    if ((route.config as { refusesMethod?: boolean } | undefined)?.refusesMethod) return;
    declared.add(route.method, route.url!);
  });
  return (request, reply) => {
    const allowed = declared.allowedFor(request.url);
    if (allowed.length === 0) return false;
    const refusal = new MethodNotAllowedException(
      `${request.method} is not allowed on this path; it allows ${allowed.join(', ')}`,
    );
    sendError(request, reply.header('allow', allowed.join(', ')), refusal, bodyLimit);
    return true;
  };
}
