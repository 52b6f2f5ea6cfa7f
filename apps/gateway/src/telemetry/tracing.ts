import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { setTracingEnabled } from '@toolgate/telemetry';

/** The service name when `OTEL_SERVICE_NAME` is not set. */
export const DEFAULT_SERVICE_NAME = 'toolgate-gateway';

/** A running tracer provider; `shutdown` flushes what is still batched. */
export interface Tracing {
  readonly provider: BasicTracerProvider;
  shutdown(): Promise<void>;
}

/**
 * Installs the OpenTelemetry SDK globally: the tracer provider with `processors`, the async-hooks
 * context manager (so a span started in a handler is the parent of every span its awaits start) and
 * the W3C propagator. The libs only use the API and pick this up (ADR 019). Sampling follows the
 * standard `OTEL_TRACES_SAMPLER` / `OTEL_TRACES_SAMPLER_ARG` (default: parent-based, always on).
 * Tests call this with an in-memory exporter's processor.
 */
export function installTracing(processors: SpanProcessor[], env: NodeJS.ProcessEnv = process.env): Tracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME?.trim() || DEFAULT_SERVICE_NAME,
      [ATTR_SERVICE_VERSION]: env.npm_package_version ?? '0.1.0',
    }),
    spanProcessors: processors,
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  setTracingEnabled(true);
  return {
    provider,
    shutdown: async () => {
      setTracingEnabled(false);
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/**
 * Tracing for the gateway process, only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: spans go in
 * batches to `<endpoint>/v1/traces` as OTLP/HTTP JSON (the exporter reads the endpoint, headers and
 * timeout from the standard `OTEL_EXPORTER_OTLP_*` variables). Unset, nothing is installed and the
 * API's no-op tracer stays: no span is made anywhere.
 */
export function startTracingFromEnv(env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) return undefined;
  const exporter: SpanExporter = new OTLPTraceExporter();
  return installTracing([new BatchSpanProcessor(exporter)], env);
}
