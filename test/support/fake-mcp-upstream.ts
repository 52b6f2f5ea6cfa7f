import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
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

/** A real MCP server (the SDK's `McpServer` over Streamable HTTP) on a loopback port. */
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

/**
 * Starts the fake with `tools`. Stateful Streamable HTTP (one `McpServer` per session), so a
 * client's `notifications/cancelled` reaches the running call, and a tool changed at runtime is
 * re-registered on every live session (the SDK then sends `notifications/tools/list_changed`).
 * `stateless`: a fresh server per request and no notifications (only polling sees changes).
 * `host`: the loopback address to listen on (127.0.0.1 by default; 127.0.0.2 stands for a private host).
 */
export async function startFakeMcpUpstream(
  tools: Record<string, FakeMcpTool>,
  options: { stateless?: boolean; host?: string } = {},
): Promise<FakeMcpUpstream> {
  const current = new Map(Object.entries(tools));
  const requests: FakeMcpUpstream['requests'] = [];
  const calls: FakeMcpUpstream['calls'] = [];
  const cancelled: string[] = [];
  const sessions = new Map<
    string,
    { server: McpServer; transport: StreamableHTTPServerTransport; tools: Map<string, RegisteredTool> }
  >();

  const register = (server: McpServer, name: string, tool: FakeMcpTool): RegisteredTool =>
    server.registerTool(name, { description: tool.description, inputSchema: tool.inputSchema }, (async (
      args: Record<string, unknown>,
      extra: { signal: AbortSignal },
    ) => {
      calls.push({ name, args });
      extra.signal.addEventListener('abort', () => cancelled.push(name), { once: true });
      return tool.handler(args, extra.signal);
    }) as never);

  const open = async () => {
    const server = new McpServer({ name: 'fake-upstream', version: '1.0.0' });
    const registered = new Map<string, RegisteredTool>();
    for (const [name, tool] of current) registered.set(name, register(server, name, tool));
    // Stateless: no session, no stream, so no list_changed notification ever reaches the client.
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: options.stateless ? undefined : () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { server, transport, tools: registered }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? '', authorization: req.headers.authorization });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    const transport = session?.transport ?? (await open());
    if (options.stateless) res.on('close', () => void transport.close());
    await transport.handleRequest(req, res, body);
  };

  const each = (work: (session: { server: McpServer; tools: Map<string, RegisteredTool> }) => void) => {
    for (const session of sessions.values()) work(session);
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => http.listen(0, host, resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/mcp`,
    requests,
    calls,
    cancelled,
    setTool(name, tool) {
      current.set(name, tool);
      each((s) => {
        s.tools.get(name)?.remove();
        s.tools.set(name, register(s.server, name, tool));
      });
    },
    removeTool(name) {
      current.delete(name);
      each((s) => {
        s.tools.get(name)?.remove();
        s.tools.delete(name);
      });
    },
    async close() {
      for (const s of sessions.values()) await s.server.close().catch(() => undefined);
      await new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
    },
  };
}
