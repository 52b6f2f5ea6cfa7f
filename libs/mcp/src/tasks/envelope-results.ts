import { Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  isOk,
  ToolRegistry,
  type Envelope,
  type Locale,
  type ToolCallResult,
  type ToolModelOutput,
} from '@toolgate/toolkit';
import { toCallToolResult } from '../mcp-results.js';

/**
 * Tool results of task calls, built by the server's own mapping (`toCallToolResult`) so that a
 * task answers exactly what a plain `tools/call` would have. For a stored envelope (a call approved
 * and run later, denied, or expired) the tool's `toModelOutput` is applied again to the stored
 * data: it is a projection of the output (pure by contract), and the record keeps the envelope only.
 */
@Injectable()
export class EnvelopeResults {
  constructor(private readonly registry: ToolRegistry) {}

  ofCall(result: ToolCallResult, locale: Locale): CallToolResult {
    return toCallToolResult(result, locale);
  }

  of(envelope: Record<string, unknown>, tool: string, callId: string, locale: Locale): CallToolResult {
    const e = envelope as unknown as Envelope;
    let modelOutput: ToolModelOutput | undefined;
    if (isOk(e)) {
      try {
        modelOutput = this.registry.get(tool)?.toModelOutput?.(e.data as never);
      } catch {
        modelOutput = undefined; // the data alone, as the model reads a tool without a projection
      }
    }
    return toCallToolResult({ callId, envelope: e, modelOutput, stage: 'executed', durationMs: 0 }, locale);
  }
}
