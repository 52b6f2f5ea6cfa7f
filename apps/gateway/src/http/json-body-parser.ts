import type { FastifyInstance } from 'fastify';
import { MAX_INPUT_DEPTH } from '@toolgate/toolkit';
import { readBoundedBody } from './bounded-body.js';
import { InputRejectedError } from './input-rejected.error.js';
import { findJsonKeyProblem, type JsonKeyProblem } from './json-key-check.js';

/**
 * How deep objects and arrays may nest in a request body. Tool input deeper than MAX_INPUT_DEPTH is
 * refused anyway, so a deeper body carries nothing the gateway accepts; refusing it before
 * JSON.parse keeps a 1 MiB body of nesting from building ~170,000 objects first.
 */
export const MAX_BODY_DEPTH = 2 * MAX_INPUT_DEPTH;

// Decoding is stateless without `stream: true`, so one decoder serves every request.
const utf8 = new TextDecoder('utf-8', { fatal: true });

const rejected = (message: string, path: readonly (string | number)[] = []) =>
  new InputRejectedError([{ kind: 'other', path, message }]);

// Rendered as "<message> at path 'input.service'".
function keyMessage(problem: JsonKeyProblem): string {
  switch (problem.kind) {
    case 'prototype':
      return 'forbidden __proto__ or constructor.prototype key';
    case 'duplicate':
      return `duplicate key '${problem.key}' (send each key once)`;
    case 'depth':
      return `objects and arrays nested deeper than ${MAX_BODY_DEPTH} levels`;
  }
}

/**
 * Parses a JSON request body strictly, so that the gateway reads exactly what a reviewer of the
 * body reads: invalid UTF-8 is refused instead of becoming U+FFFD, a key given twice in one object
 * is refused instead of "last wins", `__proto__` / `constructor.prototype` keys are refused, and so
 * is nesting deeper than MAX_BODY_DEPTH.
 * Throws InputRejectedError (400 INVALID_INPUT).
 *
 * @example parseJsonBody(Buffer.from('{"a":1,"a":2}')) // throws InputRejectedError: duplicate key 'a'
 */
export function parseJsonBody(body: Buffer): unknown {
  if (body.length === 0) throw rejected('the request body is empty but Content-Type says JSON');
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw rejected('the request body is not valid UTF-8');
  }
  // Before JSON.parse, which is slow on objects of many repeated keys: such a body fails here fast.
  const problem = findJsonKeyProblem(text, MAX_BODY_DEPTH);
  if (problem) throw rejected(keyMessage(problem), problem.path);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw rejected('the request body is not valid JSON');
  }
  // `"\ud800"` is the escaped twin of the encoded surrogate refused above: text no Unicode store
  // holds (MariaDB's JSON columns refuse it). Only a body with such an escape is walked.
  if (SURROGATE_ESCAPE.test(text)) {
    const path = loneSurrogatePath(value, []);
    if (path) throw rejected('a string holds a lone UTF-16 surrogate (\\uD800–\\uDFFF unpaired)', path);
  }
  return value;
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const wellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * Where the first string (key or value) with an unpaired surrogate is, or null. One path array,
 * pushed and popped on the way down and copied only when found: each value is visited once, so a
 * wide object at depth 128 costs no more than a flat one.
 */
function loneSurrogatePath(value: unknown, path: (string | number)[]): (string | number)[] | null {
  if (typeof value === 'string') return wellFormed(value) ? null : [...path];
  if (typeof value !== 'object' || value === null) return null;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [i, item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    path.push(key);
    const found = typeof key === 'string' && !wellFormed(key) ? [...path] : loneSurrogatePath(item, path);
    path.pop();
    if (found) return found;
  }
  return null;
}

/** Routes whose handlers read the body's bytes as sent (signed webhooks from IM platforms). */
const RAW_BODY_PREFIX = '/v1/integrations/';
const rawBodies = new WeakMap<object, Buffer>();

/** The JSON body of a request under `/v1/integrations/` as the bytes sent; undefined elsewhere. */
export function rawBodyOf(request: object): Buffer | undefined {
  return rawBodies.get(request);
}

/**
 * Replaces Fastify's JSON parser (secure-json-parse over a UTF-8 string with replacement
 * characters) with `parseJsonBody`, over a body read by `readBoundedBody`: the instance's body
 * limit still answers 413 PAYLOAD_TOO_LARGE, but only after the client has finished sending.
 */
export function useStrictJsonParser(fastify: FastifyInstance): void {
  const limit = fastify.initialConfig.bodyLimit!;
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', (request, payload, done) => {
    const header = request.headers['content-length'];
    const declared = header === undefined ? undefined : Number(header);
    readBoundedBody(payload, limit, declared, (err, body) => {
      if (err) return done(err, undefined);
      // Integrations verify a signature over the exact bytes sent; only their routes keep them.
      if (request.url.startsWith(RAW_BODY_PREFIX)) rawBodies.set(request, body!);
      let value: unknown;
      try {
        value = parseJsonBody(body!);
      } catch (parseError) {
        done(parseError as Error, undefined);
        return;
      }
      done(null, value);
    });
  });
}
