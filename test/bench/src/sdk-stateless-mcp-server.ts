import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The SDK's own stateless Streamable HTTP example (examples/server/simpleStatelessStreamableHttp),
 * serving one no-op tool: a new McpServer and transport for every request, as the example does.
 * The MCP benchmark's reference point. Prints one JSON line `{ port }` once it serves.
 */
function serverWithNoop(): McpServer {
  const server = new McpServer({ name: 'sdk-stateless-example', version: '1.0.0' });
  server.registerTool('bench_noop', { description: 'Does nothing.', inputSchema: {} }, () => ({
    content: [{ type: 'text', text: '{"ok":true}' }],
    structuredContent: { ok: true },
  }));
  return server;
}

const app = createMcpExpressApp();
app.post('/mcp', async (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => {
  const server = serverWithNoop();
  try {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
  } catch {
    if (!res.headersSent)
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }),
        );
  }
});
const listener = app.listen(0, '127.0.0.1', () => {
  const address = listener.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
process.on('SIGTERM', () => listener.close(() => process.exit(0)));
