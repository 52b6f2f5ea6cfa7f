import {
  CallToolRequestParamsSchema,
  JSONRPC_VERSION,
  RequestIdSchema,
  type CallToolRequest,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/**
 * One `tools/call` request as JSON-RPC and as MCP in one pass: the SDK's `JSONRPCRequestSchema`
 * (strict: `jsonrpc`, `id`, `method`, `params` and nothing else) with the method and params of its
 * `CallToolRequestSchema`. A message this accepts is one both of those accept, so the route's
 * JSON-RPC check and the server's params check are one parse instead of the five to seven the SDK
 * `Protocol` path ran (ADR 044). A message it refuses is checked the old way, which answers the
 * same errors as before (-32600 for what is not JSON-RPC, -32602 for bad params).
 */
const ToolCallMessageSchema = z.strictObject({
  jsonrpc: z.literal(JSONRPC_VERSION),
  id: RequestIdSchema,
  method: z.literal('tools/call'),
  params: CallToolRequestParamsSchema,
});

/** A `tools/call` request checked by `checkToolCall`: its params are the SDK's `CallToolRequest` params. */
export type CheckedToolCall = JSONRPCRequest & {
  readonly method: 'tools/call';
  params: CallToolRequest['params'];
};

/** The messages `checkToolCall` produced: only those take the direct path (ADR 044). */
const checked = new WeakSet<object>();

/**
 * The message as a checked `tools/call` request, or undefined when it is another method or does
 * not pass (then the caller checks it as any JSON-RPC message, and the server's handler answers
 * bad params as before).
 */
export function checkToolCall(message: unknown): CheckedToolCall | undefined {
  if ((message as { method?: unknown } | null)?.method !== 'tools/call') return undefined;
  const parsed = ToolCallMessageSchema.safeParse(message);
  if (!parsed.success) return undefined;
  checked.add(parsed.data);
  return parsed.data as CheckedToolCall;
}

/** Whether `message` came out of `checkToolCall` (and so needs no other check). */
export function isCheckedToolCall(message: object): message is CheckedToolCall {
  return checked.has(message);
}
