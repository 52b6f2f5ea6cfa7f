import type { RegisteredContract } from '@toolgate/toolkit';
import type { Redactor } from './redactor.js';

/** What of a tool's contract decides how its outputs are stored. */
export type OutputMarks = Pick<RegisteredContract, 'outputSensitivePaths' | 'redactNames'>;

/**
 * A call's envelope as it is stored once the call ended (ADR 036): a success's `data` redacted by
 * the tool's marked output fields (and names, where the tool opted in), a failure's error text and
 * details redacted by value; then capped. Never the envelope the caller got back.
 */
export function storedEnvelope(redactor: Redactor, envelope: unknown, tool?: OutputMarks): unknown {
  if (envelope === null || typeof envelope !== 'object') return redactor.cap(redactor.redact(envelope));
  const names = tool?.redactNames ?? false;
  const e = envelope as Record<string, unknown>;
  if (e.status === 'ok' && 'data' in e) {
    const data = redactor.redact(e.data, tool?.outputSensitivePaths ?? [], names);
    return redactor.cap(Object.assign({}, e, { data }));
  }
  return redactor.cap(redactor.redact(envelope, [], names));
}

/** A call's input as it is stored (the trail's `started`, a parked call's redacted copy): redacted, capped. */
export function storedInput(
  redactor: Redactor,
  input: unknown,
  tool: Pick<RegisteredContract, 'sensitivePaths' | 'redactNames'>,
): unknown {
  return redactor.cap(redactor.redact(input, tool.sensitivePaths, tool.redactNames));
}
