import { trace, type Tracer } from '@opentelemetry/api';

/** The instrumentation scope of every Toolgate span. */
export const TRACER_NAME = 'toolgate';

/**
 * Set by the app once it has installed an SDK (apps/gateway/src/telemetry). Until then every helper
 * here returns at its first line: with tracing off the hot path does not even build the no-op
 * spans of the API (the governed L0 figure must not move, ADR 019).
 */
let enabled = false;

/** Turns span creation on or off; the gateway calls it after registering a tracer provider. */
export function setTracingEnabled(on: boolean): void {
  enabled = on;
}

/** Whether spans are being made. */
export function tracingEnabled(): boolean {
  return enabled;
}

/**
 * The Toolgate tracer. The API's proxy tracer: it follows whichever provider the app registers, and
 * is the no-op tracer when none is.
 */
export const tracer: Tracer = trace.getTracer(TRACER_NAME);
