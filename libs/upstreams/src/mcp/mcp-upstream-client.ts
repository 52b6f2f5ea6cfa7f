import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ErrorCode as McpErrorCode,
  McpError,
  type JSONRPCMessage,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { egressErrorOf, MAX_ANSWER_BYTES, type EgressFetch, type EgressFetchOptions } from '@toolgate/egress';
import { cleanErrorMessage, DEFAULT_LOCALE, errorEnvelope, ErrorCode } from '@toolgate/toolkit';
import { MAX_TOOL_LIST_PAGES, UPSTREAM_LIST_TIMEOUT_MS } from '../constants.js';
import type {
  UpstreamCallOptions,
  UpstreamCallOutcome,
  UpstreamClient,
  UpstreamToolDefinition,
} from '../sources/tool-source.js';
import { ANSWER_TOO_LARGE_CODE, mcpFailureOf } from './mcp-failures.js';
import { outcomeOfResult } from './mcp-result.js';

/** How to reach one upstream MCP server. */
export interface McpClientOptions {
  /** http(s) only. */
  readonly url: string;
  /** Sent with every request (the auth header, its value already read from the environment). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Called when the server says its tool list changed (only while it holds a stream open). */
  readonly onToolsChanged?: () => void;
  /**
   * Builds the fetch every request goes out with: the platform's egress policy (`Egress.fetchWith`),
   * which refuses non-public destinations and redirects and bounds every answer.
   */
  readonly fetchWith: (options: Pick<EgressFetchOptions, 'onTooLarge'>) => EgressFetch;
}

const CLIENT_INFO = { name: 'toolgate', version: '1.0.0' };

function asDefinition(tool: Tool): UpstreamToolDefinition {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description ?? '',
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema !== undefined
      ? { outputSchema: tool.outputSchema as Record<string, unknown> }
      : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations as Record<string, unknown> } : {}),
  };
}

/**
 * A failure of the connection itself (not an answer of the server, not a refusal of the egress
 * policy, not an answer past its bound): worth one reconnect.
 */
function isConnectionFailure(err: unknown): boolean {
  if (egressErrorOf(err)) return false;
  if (err instanceof McpError) return err.code === McpErrorCode.ConnectionClosed;
  return !(err instanceof Error && err.name === 'AbortError');
}

/** Refuses anything but http(s): the URL is an admin's choice, the scheme is not. */
export function checkUpstreamUrl(url: string): URL {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new TypeError(`upstream URL must be http or https, got ${parsed.protocol}`);
  return parsed;
}

/** The JSON-RPC id of the request a POST body carries (the SDK sends one message per POST). */
function requestIdOf(body: unknown): string | number | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One upstream MCP server as the gateway talks to it: the SDK's `Client` over Streamable HTTP,
 * connected on first use, reconnected once when the connection fails. One instance per
 * (tenant, server): nothing of one tenant's session ever serves another's.
 */
class McpUpstreamClient implements UpstreamClient {
  private client?: Promise<Client>;
  private closed = false;

  constructor(
    private readonly url: URL,
    private readonly options: McpClientOptions,
  ) {}

  private connect(): Promise<Client> {
    if (this.closed) return Promise.reject(new Error('upstream client is closed'));
    this.client ??= this.open().catch((err: unknown) => {
      this.client = undefined;
      throw err;
    });
    return this.client;
  }

  private async open(): Promise<Client> {
    const client = new Client(CLIENT_INFO, {
      listChanged: this.options.onToolsChanged
        ? { tools: { autoRefresh: false, onChanged: () => this.options.onToolsChanged?.() } }
        : undefined,
    });
    // Redirects are refused (by the egress fetch too): the admin chose this URL, not wherever the
    // server points next.
    const transport: StreamableHTTPClientTransport = new StreamableHTTPClientTransport(this.url, {
      requestInit: { headers: { ...this.options.headers }, redirect: 'error' },
      fetch: this.transportFetch(() => transport),
    });
    client.onclose = () => {
      this.client = undefined;
    };
    await client.connect(transport, { timeout: UPSTREAM_LIST_TIMEOUT_MS });
    return client;
  }

  /**
   * The egress fetch as the SDK's transport uses it. An answer past MAX_ANSWER_BYTES fails the
   * request it answers at once (a JSON-RPC error for its id, as if the server had sent one):
   * otherwise an answer streamed as server-sent events would leave the call waiting for its
   * time limit. An error answer's body is dropped unread: the SDK would quote it in its error
   * message, and an upstream's body (an internal service's page, a leaked credential) must never
   * reach an answer of the gateway.
   */
  private transportFetch(transport: () => StreamableHTTPClientTransport): EgressFetch {
    const fetch = this.options.fetchWith({
      onTooLarge: (init) => {
        const id = requestIdOf(init?.body);
        if (id === undefined) return;
        const error = {
          code: ANSWER_TOO_LARGE_CODE,
          message: `answer larger than ${MAX_ANSWER_BYTES} bytes`,
        };
        transport().onmessage?.({ jsonrpc: '2.0', id, error } as JSONRPCMessage);
      },
    });
    return async (url, init) => {
      const response = await fetch(url, init);
      if (response.ok) return response;
      await response.body?.cancel().catch(() => undefined);
      return new Response(null, {
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers],
      });
    };
  }

  private drop(): void {
    const current = this.client;
    this.client = undefined;
    void current?.then((c) => c.close()).catch(() => undefined);
  }

  /** Runs `work` on a connected client; a broken connection is dropped and tried once more. */
  private async withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
    try {
      return await work(await this.connect());
    } catch (err) {
      if (!isConnectionFailure(err)) throw err;
      this.drop();
      return work(await this.connect());
    }
  }

  listTools(signal?: AbortSignal): Promise<UpstreamToolDefinition[]> {
    return this.withClient(async (client) => {
      const tools: UpstreamToolDefinition[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_TOOL_LIST_PAGES; page++) {
        const res = await client.listTools(cursor ? { cursor } : undefined, {
          signal,
          timeout: UPSTREAM_LIST_TIMEOUT_MS,
        });
        tools.push(...res.tools.map(asDefinition));
        cursor = res.nextCursor;
        if (!cursor) break;
      }
      return tools;
    });
  }

  async callTool(name: string, args: unknown, options: UpstreamCallOptions): Promise<UpstreamCallOutcome> {
    try {
      // On abort the SDK sends notifications/cancelled upstream before rejecting.
      const result = await this.withClient((client) =>
        client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, {
          signal: options.signal,
          timeout: options.timeoutMs,
        }),
      );
      return outcomeOfResult(result as Parameters<typeof outcomeOfResult>[0]);
    } catch (err) {
      if (options.signal.aborted) throw err;
      if (err instanceof McpError && err.code === McpErrorCode.RequestTimeout)
        return {
          ok: false,
          envelope: errorEnvelope(ErrorCode.TIMEOUT, DEFAULT_LOCALE, { timeoutMs: options.timeoutMs }),
        };
      return { ok: false, envelope: callFailureEnvelope(err) };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const current = this.client;
    this.client = undefined;
    await current?.then((c) => c.close()).catch(() => undefined);
  }
}

/**
 * A failed call as the agent reads it. The server's own JSON-RPC error is the tool's answer and
 * keeps its (cleaned) message; anything of the transport says what happened without quoting it.
 */
function callFailureEnvelope(err: unknown) {
  const failure = mcpFailureOf(err);
  if (err instanceof McpError && failure.failure === 'upstream_error')
    return errorEnvelope(ErrorCode.UPSTREAM_ERROR, DEFAULT_LOCALE, {
      message: cleanErrorMessage(err.message),
    });
  return errorEnvelope(
    ErrorCode.UPSTREAM_ERROR,
    DEFAULT_LOCALE,
    { message: failure.message },
    { failure: failure.failure },
  );
}

/**
 * Creates the client of one upstream MCP server; it connects on first use.
 * @example const client = await createMcpClient({ url: 'https://crm.example/mcp', headers: { authorization: `Bearer ${token}` }, fetchWith: egress.fetchWith })
 */
export function createMcpClient(options: McpClientOptions): Promise<UpstreamClient> {
  return Promise.resolve(new McpUpstreamClient(checkUpstreamUrl(options.url), options));
}
