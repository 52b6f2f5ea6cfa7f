import { Injectable } from '@nestjs/common';
import {
  HookOrder,
  isOk,
  ToolCallHookProvider,
  ToolRegistry,
  type ToolCall,
  type ToolCallHook,
  type ToolCallResult,
} from '@toolgate/toolkit';
import { faceOf } from '@toolgate/audit';
import { CallSeries, OTHER_LABEL } from './call-series.js';
import { MetricsRegistry } from './metrics.registry.js';

/** Latency buckets of `toolgate_tool_call_duration_seconds`, in seconds. */
export const CALL_DURATION_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30];

/** Tool-call label sets kept at most (tools × codes × faces); past it, `other`. */
export const MAX_CALL_SERIES = 2_000;

/**
 * Tool calls by tool and code, and their latency, for `/metrics`. The `tool` label names tools of
 * the registry (the platform's reviewed tools, a bounded set); tenants' imported tools, whose names
 * tenant admins choose, are all `other`, and the label sets are capped (MAX_CALL_SERIES).
 */
@Injectable()
@ToolCallHookProvider({ order: HookOrder.METRICS })
export class CallMetricsHook implements ToolCallHook {
  private readonly series: CallSeries;

  constructor(
    metrics: MetricsRegistry,
    private readonly tools: ToolRegistry,
  ) {
    this.series = new CallSeries(
      CALL_DURATION_BUCKETS,
      { calls: 'toolgate_tool_calls_total', duration: 'toolgate_tool_call_duration_seconds' },
      {
        calls: 'Tool calls by tool, outcome code and face (rest, mcp, run; none for in-process calls)',
        duration: 'Tool call latency through the whole pipeline',
      },
      metrics.registry,
      MAX_CALL_SERIES,
    );
  }

  afterCall(call: ToolCall, result: ToolCallResult): void {
    const code = isOk(result.envelope) ? 'OK' : result.envelope.code;
    const name = call.tool.contract.name;
    const tool = this.tools.get(name) ? name : OTHER_LABEL;
    this.series.record(tool, code, faceOf(call) ?? 'none', result.durationMs / 1000);
  }
}
