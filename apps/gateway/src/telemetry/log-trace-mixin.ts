import { currentTraceId } from '@toolgate/telemetry';

/**
 * The pino mixin that stamps every log line written inside a traced request with `trace_id`, so a
 * log line leads to its trace (and its audit events, which carry the same id). Empty when not
 * tracing.
 */
export function traceLogMixin(): Record<string, string> {
  const traceId = currentTraceId();
  return traceId ? { trace_id: traceId } : {};
}
