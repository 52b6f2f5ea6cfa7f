// Every export is public API of @toolgate/telemetry: the OpenTelemetry API only (ADR 019). The SDK, exporter and
// resource are set up by the app (apps/gateway/src/telemetry), and only when an endpoint is set.
export { OUTCOME_OK, SpanName, TraceAttr } from './attributes.js';
export { inSpan, recordSpan } from './spans.js';
export {
  contextFromTraceparent,
  currentTraceId,
  currentTraceparent,
  injectTraceparent,
  spanContextOf,
} from './trace-context.js';
export { setTracingEnabled, tracer, tracingEnabled } from './tracer.js';
