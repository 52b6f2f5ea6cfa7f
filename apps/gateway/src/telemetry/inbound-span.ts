import { context, ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
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

/**
 * Runs `fn` with a caller's well-formed `traceparent` as the remote parent of the spans it starts
 * (a Nest route with no server span of its own: `POST /v1/agents/:agentType/runs`, whose run span
 * then joins the caller's trace). A plain call when not tracing or without a usable header.
 */
export function inCallerTrace<T>(traceparentHeader: unknown, fn: () => T): T {
  if (!tracingEnabled()) return fn();
  const caller = traceparentOf(traceparentHeader);
  return caller ? context.with(contextFromTraceparent(caller, ROOT_CONTEXT), fn) : fn();
}
