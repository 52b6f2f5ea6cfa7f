import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { contextFromTraceparent, recordSpan, SpanName, TraceAttr, tracingEnabled } from '@toolgate/telemetry';
import type { ToolCallEntity } from '@toolgate/calls';

/**
 * Runs an approved call in the trace it was parked in (ADR 019): first the `toolgate.approval.wait`
 * span, from the request until the approved call is claimed, then `run` as a child of the span that parked the call.
 * The decision's own request, when traced, is linked rather than made the parent: the trace a
 * caller follows is its call's. Without tracing, or for a call parked before tracing was on, `run`
 * runs as it is.
 */
export function inParkedCallTrace<T>(record: ToolCallEntity, run: () => Promise<T>): Promise<T> {
  if (!tracingEnabled() || !record.traceparent) return run();
  const decision = trace.getSpanContext(context.active());
  const parent = contextFromTraceparent(record.traceparent, ROOT_CONTEXT);
  recordSpan(SpanName.APPROVAL_WAIT, {
    parent,
    links: decision ? [{ context: decision }] : undefined,
    // Parked (record and approval written together) until claimed to run, just now.
    startTime: record.createdAt,
    endTime: new Date(),
    attributes: {
      [TraceAttr.TENANT]: record.tenantId,
      [TraceAttr.TOOL]: record.tool,
      [TraceAttr.CALL_ID]: record.callId,
      ...(record.approvalId ? { [TraceAttr.APPROVAL_ID]: record.approvalId } : {}),
    },
  });
  return context.with(parent, run);
}
