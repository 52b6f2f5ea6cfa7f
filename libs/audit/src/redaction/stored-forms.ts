import type { RegisteredContract } from '@toolgate/toolkit';
import type { Redactor } from './redactor.js';

/** What of a tool's contract decides how its outputs are stored. */
export type OutputMarks = Pick<RegisteredContract, 'outputSensitivePaths' | 'redactNames'>;

/** A success's data as it is stored: by the tool's marked output fields, and names where it opted in. */
export function storedData(redactor: Redactor, data: unknown, tool?: OutputMarks): unknown {
  return redactor.redact(data, tool?.outputSensitivePaths ?? [], tool?.redactNames ?? false);
}

/**
 * A call's envelope as it is stored once the call ended (ADR 036): a success's `data` as
 * `storedData` (or `data`, when the caller redacted it already), a failure's error text and details
 * redacted by value (and names); then capped. Never the envelope the caller got back.
 */
export function storedEnvelope(
  redactor: Redactor,
  envelope: unknown,
  tool?: OutputMarks,
  data?: unknown,
): unknown {
  if (envelope === null || typeof envelope !== 'object') return redactor.cap(redactor.redact(envelope));
  const e = envelope as Record<string, unknown>;
  if (e.status === 'ok' && 'data' in e) {
    const redacted = data !== undefined ? data : storedData(redactor, e.data, tool);
    return redactor.cap(Object.assign({}, e, { data: redacted }));
  }
  return redactor.cap(redactor.redact(envelope, [], tool?.redactNames ?? false));
}

/** A call's input as it is stored (the trail's `started`, a parked call's redacted copy): redacted, capped. */
export function storedInput(
  redactor: Redactor,
  input: unknown,
  tool: Pick<RegisteredContract, 'sensitivePaths' | 'redactNames'>,
): unknown {
  return redactor.cap(redactor.redact(input, tool.sensitivePaths, tool.redactNames));
}
