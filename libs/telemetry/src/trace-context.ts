import {
  context,
  isSpanContextValid,
  trace,
  TraceFlags,
  type Context,
  type SpanContext,
} from '@opentelemetry/api';
import { tracingEnabled } from './tracer.js';

/**
 * The span context of a W3C `traceparent` the caller already checked for format (libs/mcp
 * `isTraceparent`): `00-<trace id>-<parent id>-<flags>`. Fixed offsets, no parsing of anything else.
 */
export function spanContextOf(traceparent: string): SpanContext {
  return {
    traceId: traceparent.slice(3, 35),
    spanId: traceparent.slice(36, 52),
    traceFlags: parseInt(traceparent.slice(53, 55), 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
}

/** `base` (the active context by default) with a checked `traceparent` as its remote parent. */
export function contextFromTraceparent(traceparent: string, base: Context = context.active()): Context {
  return trace.setSpanContext(base, spanContextOf(traceparent));
}

/** The active span's context when tracing is on and there is a valid one. */
function activeSpanContext(): SpanContext | undefined {
  if (!tracingEnabled()) return undefined;
  const sc = trace.getActiveSpan()?.spanContext();
  return sc && isSpanContextValid(sc) ? sc : undefined;
}

/** The trace id of the active span (32 hex), for logs and audit rows; undefined when not tracing. */
export function currentTraceId(): string | undefined {
  return activeSpanContext()?.traceId;
}

/** The active span as a `traceparent` value, to hand to an upstream or to store with a parked call. */
export function currentTraceparent(): string | undefined {
  const sc = activeSpanContext();
  if (!sc) return undefined;
  const flags = (sc.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
  return `00-${sc.traceId}-${sc.spanId}-${flags}`;
}

/**
 * Adds `traceparent` for the active span to outgoing `headers` (W3C Trace Context), so an
 * upstream that traces (SAP, NC, an OpenAPI service) joins the caller's trace. A no-op when not
 * tracing. Mutates and returns `headers`.
 */
export function injectTraceparent<H extends Record<string, string>>(
  headers: H,
): H & { traceparent?: string } {
  const value = currentTraceparent();
  if (value) (headers as Record<string, string>).traceparent = value;
  return headers;
}
