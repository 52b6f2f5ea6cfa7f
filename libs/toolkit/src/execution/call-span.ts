import { context, SpanStatusCode, trace, type Context, type Link } from '@opentelemetry/api';
import {
  contextFromTraceparent,
  inSpan,
  OUTCOME_OK,
  SpanName,
  spanContextOf,
  TraceAttr,
  tracingEnabled,
} from '@toolgate/telemetry';
import { isOk } from '../errors/envelope.js';
import { ErrorCode } from '../errors/error-codes.js';
import type { ToolCallRequest, ToolCallResult } from './tool-call.js';

/**
 * Where the governed call's span hangs: under the active span (the inbound REST/MCP request, a run
 * step, an approval resume), unless the request carries a caller's `traceparent` of another trace
 * (MCP `_meta.traceparent` per `tools/call`): then under the caller's span, linked to the active one.
 */
function parentOf(request: ToolCallRequest): { parent: Context; links?: Link[] } {
  const active = context.active();
  if (!request.traceparent) return { parent: active };
  const activeSpan = trace.getSpanContext(active);
  const caller = spanContextOf(request.traceparent);
  if (activeSpan?.traceId === caller.traceId) return { parent: active };
  return {
    parent: contextFromTraceparent(request.traceparent, active),
    links: activeSpan ? [{ context: activeSpan }] : undefined,
  };
}

/**
 * Runs one governed call inside its `toolgate.call` span. Attributes are identifiers, levels, codes
 * and a duration — never an input or output value (ADR 019). Tracing off: `run()` and nothing else.
 */
export function tracedCall(
  request: ToolCallRequest,
  run: () => Promise<ToolCallResult>,
): Promise<ToolCallResult> {
  if (!tracingEnabled()) return run();
  const { tool } = request;
  const { parent, links } = parentOf(request);
  const attributes = {
    [TraceAttr.TOOL]: tool.contract.name,
    [TraceAttr.IMPLEMENTATION]: tool.implementation.name,
    [TraceAttr.RISK_LEVEL]: tool.contract.risk.level,
    ...(request.tenant ? { [TraceAttr.TENANT]: request.tenant.id } : {}),
    ...(request.agentType ? { [TraceAttr.AGENT_TYPE]: request.agentType } : {}),
    ...(request.face ? { [TraceAttr.FACE]: request.face } : {}),
  };
  return inSpan(SpanName.CALL, { parent, links, attributes }, async (span) => {
    const result = await run();
    const code = isOk(result.envelope) ? OUTCOME_OK : result.envelope.code;
    const pending = code === ErrorCode.APPROVAL_PENDING;
    span?.setAttributes({
      [TraceAttr.CALL_ID]: result.callId,
      [TraceAttr.OUTCOME]: code,
      [TraceAttr.APPROVAL]: request.approval ? 'approved' : pending ? 'pending' : 'none',
      [TraceAttr.DURATION_MS]: Math.round(result.durationMs * 1000) / 1000,
    });
    if (code !== OUTCOME_OK && !pending) span?.setStatus({ code: SpanStatusCode.ERROR, message: code });
    return result;
  });
}
