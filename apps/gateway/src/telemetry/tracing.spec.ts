import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  contextFromTraceparent,
  currentTraceId,
  currentTraceparent,
  injectTraceparent,
  inSpan,
  recordSpan,
  spanContextOf,
  tracingEnabled,
} from '@toolgate/telemetry';
import { context } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { traceLogMixin } from './log-trace-mixin.js';
import { installTracing, startTracingFromEnv, type Tracing } from './tracing.js';

const CALLER = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('tracing setup and the telemetry helpers', () => {
  let tracing: Tracing | undefined;
  afterEach(async () => {
    await tracing?.shutdown();
    tracing = undefined;
  });

  it('installs nothing without OTEL_EXPORTER_OTLP_ENDPOINT: no spans, no trace ids, no headers', async () => {
    expect(startTracingFromEnv({})).toBeUndefined();
    expect(startTracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeUndefined();
    expect(tracingEnabled()).toBe(false);
    const seen = await inSpan('x', {}, async (span) => span);
    expect(seen).toBeUndefined();
    expect(injectTraceparent({})).toEqual({});
    expect(traceLogMixin()).toEqual({});
  });

  it('reads a checked traceparent at its fixed offsets', () => {
    expect(spanContextOf(CALLER)).toEqual({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
      isRemote: true,
    });
  });

  it('continues a caller’s trace, stamps logs and outgoing headers, and ends spans on failure too', async () => {
    const exporter = new InMemorySpanExporter();
    tracing = installTracing([new SimpleSpanProcessor(exporter)], { OTEL_SERVICE_NAME: 'svc' });
    const parent = contextFromTraceparent(CALLER, context.active());
    const inner = await inSpan('outer', { parent }, () =>
      inSpan('inner', {}, async () => ({
        log: traceLogMixin(),
        headers: injectTraceparent({ accept: 'application/json' }),
        traceId: currentTraceId(),
        traceparent: currentTraceparent(),
      })),
    );
    expect(inner.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(inner.log).toEqual({ trace_id: inner.traceId });
    expect(inner.headers.traceparent).toBe(inner.traceparent);
    expect(inner.traceparent).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
    await expect(
      inSpan('failing', {}, async () => {
        throw new TypeError('secret input value');
      }),
    ).rejects.toThrow(TypeError);
    recordSpan('waited', { startTime: new Date(Date.now() - 1000), endTime: new Date() });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['inner', 'outer', 'failing', 'waited']);
    const [innerSpan, outerSpan, failing, waited] = spans;
    expect(outerSpan!.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(innerSpan!.parentSpanContext?.spanId).toBe(outerSpan!.spanContext().spanId);
    // The error's type, never its message: messages may quote input values.
    expect(failing!.status).toEqual({ code: 2, message: 'TypeError' });
    expect(waited!.duration[0]).toBeGreaterThanOrEqual(0.9);
    expect(outerSpan!.resource.attributes['service.name']).toBe('svc');
  });
});
