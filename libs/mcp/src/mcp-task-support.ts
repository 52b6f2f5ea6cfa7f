import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CreateTaskResult, ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { McpCaller } from './mcp-caller.js';

/** A `tools/call` that asked for a task (`params.task`), resolved and checked by the server. */
export interface McpTaskCall {
  readonly caller: McpCaller;
  /** The bound tool to run (after `tool_call` unwrapping): listed or reachable, never another agent's. */
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  /** `params.task` as the client sent it (the requested `ttl`, if any). */
  readonly task: { readonly ttl?: number };
  /** The well-formed traceparent of the request, if any. */
  readonly traceparent?: string;
  /** The JSON-RPC request's internal id (unique in this process). */
  readonly requestId: RequestId;
}

/**
 * The seam for MCP tasks (issue 11, "Approval through MCP itself"): when a `tools/call` carries
 * `params.task` and a provider is bound under `MCP_TASK_SUPPORT`, the server hands the call to it
 * instead of answering the tool result. Without a provider the server neither advertises tasks nor
 * reads `params.task` (the transport drops it, as the spec asks of receivers without tasks).
 * The server is stateless, so it cannot remember what the client declared at `initialize`: a
 * client sending `params.task` is taken to support tasks.
 */
export interface McpTaskSupport {
  /** Merged into the server's capabilities (the `tasks` capability) before it connects. */
  readonly capabilities: ServerCapabilities;
  /**
   * Installs the `tasks/*` request handlers on the one server. `callerOf(extra.requestId)` gives
   * the caller of a request being handled; a task must only be visible to its own tenant and key.
   * `stopOnDisconnect(extra.requestId)` makes a request's `extra.signal` fire when its HTTP client
   * goes away (a `tasks/result` wait has nobody left to answer).
   */
  install(
    server: Server,
    callerOf: (requestId: RequestId) => McpCaller,
    stopOnDisconnect?: (requestId: RequestId) => void,
  ): void;
  /** Starts the call as a task and answers its CreateTaskResult. */
  createTask(call: McpTaskCall): Promise<CreateTaskResult>;
}

/** Nest provider token of the optional `McpTaskSupport`. */
export const MCP_TASK_SUPPORT = Symbol('MCP_TASK_SUPPORT');
