import { context, trace, type Context, type Span } from '@opentelemetry/api';
import { inSpan, SpanName, TraceAttr, tracer, tracingEnabled } from '@toolgate/telemetry';
import type { AgentRunEntity } from '../entities/agent-run.entity.js';

/** The attributes of a run's `toolgate.run` span: who and which run, never its input or output. */
export function runSpanAttributes(run: AgentRunEntity): Record<string, string> {
  return {
    [TraceAttr.TENANT]: run.tenantId,
    [TraceAttr.AGENT_TYPE]: run.agentType,
    [TraceAttr.RUN_ID]: run.runId,
    [TraceAttr.MODEL]: run.model,
  };
}

/**
 * The step spans of one drive of a run (ADR 019): `toolgate.run.step` holds the step's model call
 * and then its tool calls. A step opens with its model call and closes once its calls are settled,
 * a loop iteration later; a step read back from storage (a resumed or taken-over run) opens when
 * it is settled. Tracing off: each method runs its function and does nothing else.
 */
export class RunStepTrace {
  private open?: { readonly index: number; readonly span: Span; readonly ctx: Context };

  constructor(private readonly runId: string) {}

  /** Runs `fn` inside step `index`'s span, opening it (and closing an older one) when needed. */
  inStep<T>(index: number, fn: () => T): T {
    if (!tracingEnabled()) return fn();
    if (this.open?.index !== index) {
      this.close();
      const parent = context.active();
      const span = tracer.startSpan(
        SpanName.RUN_STEP,
        { attributes: { [TraceAttr.RUN_ID]: this.runId, [TraceAttr.STEP]: index } },
        parent,
      );
      this.open = { index, span, ctx: trace.setSpan(parent, span) };
    }
    return context.with(this.open.ctx, fn);
  }

  /** The model call of step `index`, in its own span under the step. Never the messages. */
  modelCall<T>(index: number, model: string, fn: () => Promise<T>): Promise<T> {
    return this.inStep(index, () =>
      inSpan(SpanName.MODEL_CALL, { attributes: { [TraceAttr.MODEL]: model, [TraceAttr.STEP]: index } }, fn),
    );
  }

  /** Ends the open step span, if any. */
  close(): void {
    this.open?.span.end();
    this.open = undefined;
  }
}
