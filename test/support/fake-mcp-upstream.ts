import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ZodRawShape } from 'zod';

/** One tool of the fake server; change it at runtime with `setTool`. */
export interface FakeMcpTool {
  readonly description: string;
  readonly inputSchema: ZodRawShape;
  readonly handler: (
    args: Record<string, unknown>,
    signal: AbortSignal,
  ) => Promise<CallToolResult> | CallToolResult;
}

/** A real MCP server (the SDK's `McpServer`, stateless Streamable HTTP) on a loopback port. */
export interface FakeMcpUpstream {
  readonly url: string;
  /** Requests seen, with their headers (to check the auth header). */
  readonly requests: { method: string; authorization?: string }[];
  /** Calls seen: tool name and arguments. */
  readonly calls: { name: string; args: Record<string, unknown> }[];
  /** Calls whose signal fired (the client sent notifications/cancelled or went away). */
  readonly cancelled: string[];
  setTool(name: string, tool: FakeMcpTool): void;
  removeTool(name: string): void;
  close(): Promise<void>;
}

/** Starts the fake with `tools`; each request gets a fresh server built from the current tools. */
export async function startFakeMcpUpstream(tools: Record<string, FakeMcpTool>): Promise<FakeMcpUpstream> {
  const current = new Map(Object.entries(tools));
  const requests: FakeMcpUpstream['requests'] = [];
  const calls: FakeMcpUpstream['calls'] = [];
  const cancelled: string[] = [];

  const build = () => {
    const server = new McpServer({ name: 'fake-upstream', version: '1.0.0' });
    for (const [name, tool] of current) {
      server.registerTool(name, { description: tool.description, inputSchema: tool.inputSchema }, (async (
        args: Record<string, unknown>,
        extra: { signal: AbortSignal },
      ) => {
        calls.push({ name, args });
        extra.signal.addEventListener('abort', () => cancelled.push(name), { once: true });
        return tool.handler(args, extra.signal);
      }) as never);
    }
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? '', authorization: req.headers.authorization });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const server = build();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    calls,
    cancelled,
    setTool: (name, tool) => void current.set(name, tool),
    removeTool: (name) => void current.delete(name),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
