/**
 * W3C Trace Context `traceparent` (version 00 layout, https://www.w3.org/TR/trace-context/):
 * `vv-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`, lower-case, trace and parent ids not all
 * zeros, version not `ff`. Checked character by character in one pass: the value comes from the
 * client, so no regex engine gets to backtrack over it. Later versions may append `-...` fields.
 */
export function isTraceparent(value: unknown): value is string {
  if (typeof value !== 'string' || value.length < 55 || value.length > 256) return false;
  if (value.length > 55 && (value.slice(0, 2) === '00' || value[55] !== '-')) return false;
  if (value[2] !== '-' || value[35] !== '-' || value[52] !== '-') return false;
  let traceZero = true;
  let parentZero = true;
  for (let i = 0; i < 55; i++) {
    if (i === 2 || i === 35 || i === 52) continue;
    const c = value.charCodeAt(i);
    const hex = (c >= 48 && c <= 57) || (c >= 97 && c <= 102);
    if (!hex) return false;
    if (c !== 48) {
      if (i > 2 && i < 35) traceZero = false;
      else if (i > 35 && i < 52) parentZero = false;
    }
  }
  return value.slice(0, 2) !== 'ff' && !traceZero && !parentZero;
}

/** The first well-formed traceparent among `candidates` (header, then `_meta`), or undefined. */
export function traceparentOf(...candidates: unknown[]): string | undefined {
  for (const c of candidates) if (isTraceparent(c)) return c;
  return undefined;
}
