import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpCaller } from './mcp-caller.js';

/** How the transport answers one HTTP request; the route implements it over Fastify. */
export interface McpReplyWriter {
  /** The client's Accept allows `text/event-stream`: notifications can reach it. */
  readonly canStream: boolean;
  /** Sends one message as an SSE event; the stream (200, text/event-stream) opens on first use. */
  event(message: JSONRPCMessage): void;
  /**
   * Ends the exchange. Without an open stream: the responses as JSON (an array for a batch), or
   * 202 with no body when there is none; with one: ends the stream.
   */
  end(responses: JSONRPCMessage[], batch: boolean): void;
}

/** One HTTP POST: its requests still waiting for a response, and what was answered so far. */
export class Exchange {
  private open = 0;
  /** Internal ids of its requests still in flight. */
  readonly inFlight = new Set<number>();
  private streaming = false;
  private readonly responses: JSONRPCMessage[] = [];

  constructor(
    private readonly writer: McpReplyWriter,
    private readonly batch: boolean,
  ) {}

  opened(): void {
    this.open++;
  }

  respond(message: JSONRPCMessage | undefined): void {
    if (message) {
      if (this.streaming) this.writer.event(message);
      else this.responses.push(message);
    }
    if (--this.open === 0) this.writer.end(this.streaming ? [] : this.responses, this.batch);
  }

  /** A notification about one of the requests (progress): it turns the answer into a stream. */
  notify(message: JSONRPCMessage): void {
    if (!this.writer.canStream || this.open === 0) return;
    if (!this.streaming) {
      this.streaming = true;
      for (const r of this.responses.splice(0)) this.writer.event(r);
    }
    this.writer.event(message);
  }

  /** Called once every message was delivered: an exchange without requests is answered 202. */
  delivered(): void {
    if (this.open === 0) this.writer.end([], this.batch);
  }
}

interface Pending {
  readonly clientId: RequestId;
  readonly cancelKey: string;
  readonly exchange: Exchange;
  readonly caller: McpCaller;
  /** Stopped when its HTTP client goes away (read-only calls: nobody is left to answer). */
  stopOnDisconnect?: boolean;
}

/**
 * The SDK `Transport` under the gateway's one long-lived MCP `Server`, multiplexing every HTTP
 * request of the process onto it (a Server and a transport per request cost more than the governed
 * call itself: docs/benchmarks.md). Each inbound JSON-RPC request gets a process-unique id —
 * client ids collide across clients — and the caller it came with; `send` routes a response or a
 * notification back to the HTTP reply of its request with the client's id restored.
 *
 * Nothing here outlives the HTTP request that carried it, so any gateway answers any request.
 */
export class HttpMultiplexTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  /** (key id, client request id) → internal id, for `notifications/cancelled`. */
  private readonly byClient = new Map<string, number>();

  /**
   * @param acceptsTasks whether `params.task` reaches the server; without task support the spec
   *   asks receivers to process the request normally, so the field is dropped on the way in.
   */
  constructor(private readonly acceptsTasks: () => boolean) {}

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** The caller of a request the server is handling (its internal id). */
  callerOf(requestId: RequestId): McpCaller {
    const pending = typeof requestId === 'number' ? this.pending.get(requestId) : undefined;
    if (!pending) throw new Error(`no MCP request ${String(requestId)} in flight`);
    return pending.caller;
  }

  /** Delivers the messages of one HTTP request (already checked to be JSON-RPC) to the server. */
  deliver(
    messages: readonly JSONRPCMessage[],
    batch: boolean,
    caller: McpCaller,
    writer: McpReplyWriter,
  ): Exchange {
    const exchange = new Exchange(writer, batch);
    const keyPrefix = `${caller.principal.principalId}\n`;
    for (const message of messages) {
      if (isRequest(message)) {
        const id = ++this.nextId;
        const cancelKey = keyPrefix + typeof message.id + String(message.id);
        this.pending.set(id, { clientId: message.id, cancelKey, exchange, caller });
        this.byClient.set(cancelKey, id);
        exchange.inFlight.add(id);
        exchange.opened();
        const params =
          this.acceptsTasks() || !message.params?.task ? message.params : withoutTask(message.params);
        this.onmessage?.({ ...message, params, id });
      } else if (isNotification(message)) {
        if (message.method === 'notifications/cancelled') this.cancel(message.params, keyPrefix);
        else this.onmessage?.(message);
      }
      // Responses from the client answer requests this server never sends: nothing to do.
    }
    exchange.delivered();
    return exchange;
  }

  /** Marks a request in flight to be stopped if its HTTP client goes away. */
  stopOnDisconnect(requestId: RequestId): void {
    const pending = typeof requestId === 'number' ? this.pending.get(requestId) : undefined;
    if (pending) pending.stopOnDisconnect = true;
  }

  /**
   * The HTTP client of `exchange` went away: its requests marked `stopOnDisconnect` are cancelled
   * in the server (their handler's signal fires), as a `notifications/cancelled` would; the others
   * run to their end and their answers go nowhere.
   */
  clientGone(exchange: Exchange): void {
    for (const id of [...exchange.inFlight]) {
      const pending = this.pending.get(id);
      if (!pending?.stopOnDisconnect) continue;
      this.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'the client closed the connection' },
      });
      this.settle(id, pending);
      exchange.respond(undefined);
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isResponse(message)) {
      const id = message.id;
      const pending = typeof id === 'number' ? this.pending.get(id) : undefined;
      if (!pending) return;
      this.settle(id as number, pending);
      pending.exchange.respond({ ...message, id: pending.clientId } as JSONRPCMessage);
      return;
    }
    const related = options?.relatedRequestId;
    const pending = typeof related === 'number' ? this.pending.get(related) : undefined;
    if (pending && isNotification(message)) pending.exchange.notify(message);
    // Server-initiated requests (sampling, elicitation) and unrelated notifications have no HTTP
    // reply to travel on in a stateless server: dropped.
  }

  /**
   * `notifications/cancelled` from the same key: the request is aborted in the server (its
   * handler's signal fires) and its HTTP answer ends without a response, as the spec says.
   */
  private cancel(params: Record<string, unknown> | undefined, keyPrefix: string): void {
    const requestId = params?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const id = this.byClient.get(keyPrefix + typeof requestId + String(requestId));
    const pending = id === undefined ? undefined : this.pending.get(id);
    if (id === undefined || !pending) return;
    this.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { ...params, requestId: id },
    });
    this.settle(id, pending);
    pending.exchange.respond(undefined);
  }

  private settle(id: number, pending: Pending): void {
    this.pending.delete(id);
    pending.exchange.inFlight.delete(id);
    if (this.byClient.get(pending.cancelKey) === id) this.byClient.delete(pending.cancelKey);
  }
}

function withoutTask(params: Record<string, unknown>): Record<string, unknown> {
  const { task: _task, ...rest } = params;
  return rest;
}

/*
 * Kinds of messages already checked against JSONRPCMessageSchema (inbound, by the route) or built
 * by the SDK (outbound). The SDK's is* guards re-parse the whole message with Zod, results
 * included, which costs more per call than the routing itself.
 */
function isRequest(m: JSONRPCMessage): m is JSONRPCRequest {
  return 'method' in m && 'id' in m;
}

function isNotification(m: JSONRPCMessage): m is JSONRPCNotification {
  return 'method' in m && !('id' in m);
}

function isResponse(
  m: JSONRPCMessage,
): m is Extract<JSONRPCMessage, { id: RequestId }> & { result?: unknown } {
  return !('method' in m) && ('result' in m || 'error' in m);
}
