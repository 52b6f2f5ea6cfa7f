import { componentRef, type ErrorCode } from '@toolgate/contract';
import type { z } from 'zod';
import { statusOfThrown } from '../http/error-status.js';

type SchemaObject = Record<string, unknown>;

/** What a success answer carries: a named contract schema, a list of one, or any JSON (a tool's output). */
export type DataSchema = z.ZodType | readonly [z.ZodType] | 'any';

/** The schema of `data`: a `$ref` to the contract's component, an array of one, or anything. */
function dataSchemaOf(data: DataSchema): SchemaObject {
  if (data === 'any') return { description: 'Any JSON value: the tool output' };
  if (Array.isArray(data)) return { type: 'array', items: componentRef((data as readonly [z.ZodType])[0]) };
  return componentRef(data as z.ZodType);
}

/** `{ data, status: "ok" }` around `data`. */
export function okEnvelopeSchema(data: DataSchema): SchemaObject {
  return {
    type: 'object',
    required: ['data', 'status'],
    properties: { data: dataSchemaOf(data), status: { type: 'string', enum: ['ok'] } },
  };
}

/** The error envelope with `code` narrowed to the given codes. */
export function errorEnvelopeSchema(codes: readonly string[]): SchemaObject {
  return {
    allOf: [
      { $ref: '#/components/schemas/ErrorEnvelope' },
      { type: 'object', properties: { code: { type: 'string', enum: [...codes] } } },
    ],
  };
}

/** Codes any route with an API key may answer: bad request, no or bad key, role, database, bug. */
export const KEYED_ROUTE_ERRORS: readonly ErrorCode[] = [
  'INVALID_INPUT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_READY',
  'INTERNAL_ERROR',
];
/**
 * Codes a public route (health, readiness) may answer: a request the server cannot read (malformed,
 * headers too large...) is refused with INVALID_INPUT before any route runs, public ones included.
 */
export const PUBLIC_ROUTE_ERRORS: readonly ErrorCode[] = ['INVALID_INPUT', 'NOT_READY', 'INTERNAL_ERROR'];

/** One error response per HTTP status, each listing its codes (the gateway's own code → status map). */
export function errorResponses(codes: readonly ErrorCode[]): Record<string, SchemaObject> {
  const byStatus = new Map<number, string[]>();
  for (const code of new Set(codes)) {
    const status = statusOfThrown(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        {
          description: list.join(' / '),
          content: { 'application/json': { schema: errorEnvelopeSchema(list) } },
        },
      ]),
  );
}
