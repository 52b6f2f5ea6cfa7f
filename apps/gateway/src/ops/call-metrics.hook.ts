import { Injectable } from '@nestjs/common';
import {
  HookOrder,
  isOk,
  ToolCallHookProvider,
  type ToolCall,
  type ToolCallHook,
  type ToolCallResult,
} from '@toolgate/toolkit';
import { faceOf } from '@toolgate/audit';
import { Counter, Histogram, type Registry } from 'prom-client';
import { MetricsRegistry } from './metrics.registry.js';

/** Tool calls by tool and code, and their latency, for `/metrics`. */
@Injectable()
@ToolCallHookProvider({ order: HookOrder.METRICS })
export class CallMetricsHook implements ToolCallHook {
  private readonly calls: Counter<'tool' | 'code' | 'face'>;
  private readonly latency: Histogram<'tool' | 'code' | 'face'>;
  private readonly children = new Map<
    string,
    { calls: { inc(): void }; latency: { observe(v: number): void } }
  >();

  constructor(metrics: MetricsRegistry) {
    const registers: Registry[] = [metrics.registry];
    this.calls = new Counter({
      name: 'toolgate_tool_calls_total',
      help: 'Tool calls by tool, outcome code and face (rest, mcp, run; none for in-process calls)',
      labelNames: ['tool', 'code', 'face'],
      registers,
    });
    this.latency = new Histogram({
      name: 'toolgate_tool_call_duration_seconds',
      help: 'Tool call latency through the whole pipeline',
      labelNames: ['tool', 'code', 'face'],
      buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
  }

  afterCall(call: ToolCall, result: ToolCallResult): void {
    const tool = call.tool.contract.name;
    const code = isOk(result.envelope) ? 'OK' : result.envelope.code;
    const face = faceOf(call) ?? 'none';
    // The labelled children are cached: prom-client hashes the label object on every plain call.
    const key = `${tool}\u0000${code}\u0000${face}`;
    let child = this.children.get(key);
    if (!child) {
      child = {
        calls: this.calls.labels(tool, code, face),
        latency: this.latency.labels(tool, code, face),
      };
      this.children.set(key, child);
    }
    child.calls.inc();
    child.latency.observe(result.durationMs / 1000);
  }
}
