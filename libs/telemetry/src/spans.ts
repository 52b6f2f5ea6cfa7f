import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type TimeInput,
} from '@opentelemetry/api';
import { tracer, tracingEnabled } from './tracer.js';

/** How a span starts. */
export interface SpanOptions {
  readonly attributes?: Attributes;
  readonly kind?: SpanKind;
  /** The parent context; the active one by default. */
  readonly parent?: Context;
  readonly links?: Link[];
  readonly startTime?: TimeInput;
}

function isThenable<T>(v: T | PromiseLike<T>): v is PromiseLike<T> {
  return typeof (v as PromiseLike<T> | null)?.then === 'function';
}

function failed(span: Span, err: unknown): void {
  // The error's type only: messages may quote upstream text or input values.
  span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.name ?? 'Error' });
}

/**
 * Runs `fn` inside a new active span that ends when `fn` settles; a throw or rejection marks the
 * span failed (by error type, never by message) and passes through. With tracing off `fn` runs
 * with `undefined` and nothing else happens: no span, no context switch, no promise added.
 * @example
 * const rows = await inSpan(SpanName.AUDIT_WRITE, { attributes: { [TraceAttr.AUDIT_EVENTS]: n } }, () => flush());
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span | undefined) => T): T {
  if (!tracingEnabled()) return fn(undefined);
  const parent = options.parent ?? context.active();
  const span = tracer.startSpan(
    name,
    {
      kind: options.kind ?? SpanKind.INTERNAL,
      attributes: options.attributes,
      links: options.links,
      startTime: options.startTime,
    },
    parent,
  );
  let result: T;
  try {
    result = context.with(trace.setSpan(parent, span), fn, undefined, span);
  } catch (err) {
    failed(span, err);
    span.end();
    throw err;
  }
  if (!isThenable(result)) {
    span.end();
    return result;
  }
  return Promise.resolve(result).then(
    (value) => {
      span.end();
      return value;
    },
    (err: unknown) => {
      failed(span, err);
      span.end();
      throw err;
    },
  ) as T;
}

/**
 * Records a span that already happened, from `startTime` to `endTime` (e.g. the time a call sat
 * parked for approval, known only once a person decided). Nothing when tracing is off.
 */
export function recordSpan(
  name: string,
  options: SpanOptions & { readonly startTime: TimeInput; readonly endTime?: TimeInput },
): void {
  if (!tracingEnabled()) return;
  tracer
    .startSpan(
      name,
      {
        kind: options.kind,
        attributes: options.attributes,
        links: options.links,
        startTime: options.startTime,
      },
      options.parent ?? context.active(),
    )
    .end(options.endTime);
}

/** The active span, when tracing; for adding attributes known only later (an outcome). */
export function activeSpan(): Span | undefined {
  return tracingEnabled() ? trace.getActiveSpan() : undefined;
}
