import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { componentRef, type ErrorCode } from '@toolgate/contract';
import type { z } from 'zod';
import {
  errorResponses,
  KEYED_ROUTE_ERRORS,
  okEnvelopeSchema,
  PUBLIC_ROUTE_ERRORS,
  type DataSchema,
} from './envelope-schemas.js';

export interface ApiEnvelopeOptions {
  /** The success status (200 unless the route says `@HttpCode(201)`). */
  readonly status?: number;
  /** Codes this route answers beyond the ones every route of its kind may. */
  readonly errors?: readonly ErrorCode[];
  /** A route without an API key (health, metrics). */
  readonly public?: boolean;
  /** The answer is a file, not an envelope: its media types (the body is text). */
  readonly text?: readonly string[];
  /** The answer is a binary file (a ZIP), not an envelope: its media types. */
  readonly binary?: readonly string[];
  /**
   * The answer is a stream of server-sent events whose `data` is this contract schema. OpenAPI 3.0
   * cannot describe a stream, so the `text/event-stream` schema describes one event (as SSE-aware
   * generators read it).
   */
  readonly events?: z.ZodType;
}

/** One server-sent event: `id:`, `event:` (its type) and `data:` (the JSON of `data`). */
function eventSchema(data: z.ZodType) {
  return {
    type: 'object',
    description: 'One event of the stream: `id:` its number, `event:` its type, `data:` as JSON',
    required: ['id', 'event', 'data'],
    properties: { id: { type: 'string' }, event: { type: 'string' }, data: componentRef(data) },
  };
}

/** The success answer: server-sent events, a file, or the envelope around `data`. */
function successResponse(data: DataSchema | null, options: ApiEnvelopeOptions, status: number) {
  if (options.events)
    return ApiResponse({
      status,
      description: 'A stream of server-sent events',
      content: { 'text/event-stream': { schema: eventSchema(options.events) } },
    });
  if (options.text)
    return ApiResponse({
      status,
      description: options.text.join(' or '),
      content: Object.fromEntries(options.text.map((type) => [type, { schema: { type: 'string' } }])),
    });
  if (options.binary)
    return ApiResponse({
      status,
      description: options.binary.join(' or '),
      content: Object.fromEntries(
        options.binary.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
      ),
    });
  return ApiResponse({
    status,
    description: 'Success: the envelope { data, status: "ok" }',
    content: { 'application/json': { schema: okEnvelopeSchema(data ?? 'any') } },
  });
}

/**
 * Documents a route's answers in OpenAPI from the contract's schemas (libs/contract): the success
 * envelope with its `data` schema, and the error envelope under each status the route may answer,
 * with the codes of that status. `data` is a contract schema, `[schema]` for a list, or 'any'.
 */
export function ApiEnvelope(data: DataSchema | null, options: ApiEnvelopeOptions = {}): MethodDecorator {
  const status = options.status ?? 200;
  const base = options.public ? PUBLIC_ROUTE_ERRORS : KEYED_ROUTE_ERRORS;
  const failures = Object.entries(errorResponses([...base, ...(options.errors ?? [])])).map(
    ([code, response]) => ApiResponse({ status: Number(code), ...(response as object) } as never),
  );
  return applyDecorators(successResponse(data, options, status), ...failures);
}
