/**
 * A JSON-RPC error for the SDK's `Protocol` to answer as `{code, message, data}`. Not the SDK's
 * `McpError`: that one writes "MCP error <code>: " into its own message, which the server then
 * sends, and clients add the same prefix again when they raise it ("MCP error -32602: MCP error
 * -32602: Unknown tool"). The message here is only what the client should read.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}
