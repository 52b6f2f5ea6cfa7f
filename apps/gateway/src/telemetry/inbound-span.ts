import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import { traceparentOf } from '@toolgate/mcp';
import { contextFromTraceparent, inSpan, TraceAttr, tracingEnabled } from '@toolgate/telemetry';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Runs a raw route's handler inside its server span: the inbound request of a REST invoke or an MCP
 * POST. A well-formed `traceparent` header continues the caller's trace; anything else starts a new
 * one (never the previous request's: the parent is the root context, not whatever is active).
 * Attributes: method, route template and status — never the URL, query or body.
 */
export function inInboundSpan<T>(
  name: string,
  route: string,
  request: FastifyRequest,
  reply: FastifyReply,
  handle: () => Promise<T>,
): Promise<T> {
  if (!tracingEnabled()) return handle();
  const caller = traceparentOf(request.headers.traceparent);
  const parent = caller ? contextFromTraceparent(caller, ROOT_CONTEXT) : ROOT_CONTEXT;
  return inSpan(
    name,
    {
      parent,
      kind: SpanKind.SERVER,
      attributes: { [TraceAttr.HTTP_METHOD]: request.method, [TraceAttr.HTTP_ROUTE]: route },
    },
    async (span) => {
      try {
        return await handle();
      } finally {
        span?.setAttribute(TraceAttr.HTTP_STATUS, reply.statusCode);
      }
    },
  );
}
