import { compileSchema, type CompiledSchema, type ToolSchema } from '@toolgate/toolkit';
import { InputRejectedError } from './input-rejected.error.js';

const compiled = new WeakMap<object, CompiledSchema>();

/**
 * Checks one part of a request (body, query, params) against its schema with the platform's own
 * checks, so request errors read exactly like tool input errors and unknown fields are refused by
 * name. Returns the parsed value (defaults filled in); throws InputRejectedError.
 */
export function checkRequestPart<T>(schema: ToolSchema, value: unknown): T {
  let c = compiled.get(schema);
  if (!c) {
    c = compileSchema(schema, 'input');
    compiled.set(schema, c);
  }
  const checked = c.check(value);
  if (!checked.ok) throw new InputRejectedError(checked.issues);
  return checked.value as T;
}
