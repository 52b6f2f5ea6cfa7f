import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode as RpcErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { CallAbortSignal, MaybePromise } from '@toolgate/toolkit';
import type { McpCaller } from './mcp-caller.js';
import { isCheckedToolCall, type CheckedToolCall } from './tool-call-message.js';

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

/**
 * One HTTP POST: its requests still waiting for a response, and what was answered so far. A batch's
 * responses are sent in the order of its requests (slots), whichever path answered first: a direct
 * `tools/call` answers before `deliver` returns, a request through the `Protocol` a few microtasks
 * later.
 */
export class Exchange {
  private open = 0;
  private slots = 0;
  /** Answers wait until every message was delivered: a synchronous one must not end the exchange early. */
  private delivering = true;
  /** Internal ids of its requests still in flight (none for an exchange answered at once). */
  private inFlight: Set<number> | undefined;
  private streaming = false;
  /** Responses by slot (holes for requests not answered yet, or cancelled). */
  private readonly responses: (JSONRPCMessage | undefined)[] = [];

  constructor(
    private readonly writer: McpReplyWriter,
    private readonly batch: boolean,
  ) {}

  /** Its requests in flight now. */
  requestsInFlight(): number[] {
    return this.inFlight ? [...this.inFlight] : [];
  }

  /** A request of the exchange is in flight under internal id `id` (until `landed`). */
  inFlightAs(id: number): void {
    (this.inFlight ??= new Set()).add(id);
  }

  landed(id: number): void {
    this.inFlight?.delete(id);
  }

  /** A request of the exchange awaits its response: its slot, for `respond`. */
  opened(): number {
    this.open++;
    return this.slots++;
  }

  respond(message: JSONRPCMessage | undefined, slot: number): void {
    if (message) {
      if (this.streaming) this.writer.event(message);
      else this.responses[slot] = message;
    }
    if (--this.open === 0 && !this.delivering) this.end();
  }

  /** A notification about one of the requests (progress): it turns the answer into a stream. */
  notify(message: JSONRPCMessage): void {
    if (!this.writer.canStream || this.open === 0) return;
    if (!this.streaming) {
      this.streaming = true;
      for (const r of this.answered()) this.writer.event(r);
      this.responses.length = 0;
    }
    this.writer.event(message);
  }

  /** Called once every message was delivered: an exchange without requests is answered 202. */
  delivered(): void {
    this.delivering = false;
    if (this.open === 0) this.end();
  }

  private end(): void {
    this.writer.end(this.streaming ? [] : this.answered(), this.batch);
  }

  private answered(): JSONRPCMessage[] {
    const responses = this.responses;
    if (responses.length === 1 && responses[0] !== undefined) return responses as JSONRPCMessage[];
    return responses.filter((r) => r !== undefined);
  }
}

interface Pending {
  readonly clientId: RequestId;
  /** Its place in the exchange's answer. */
  readonly slot: number;
  readonly cancelKey: string;
  readonly exchange: Exchange;
  readonly caller: McpCaller;
  /** Stopped when its HTTP client goes away (read-only calls: nobody is left to answer). */
  stopOnDisconnect?: boolean;
  /** A request answered on the direct path: cancelled here, not in the SDK's `Protocol`. */
  readonly direct?: DirectRequest;
}

/**
 * One `tools/call` answered on the direct path (ADR 044), as its handler sees it: the caller, the
 * call's abort signal (this object: one allocation for both, and no AbortController — an
 * EventTarget and its signal per call, for the few that are cancelled), progress notifications.
 */
export class DirectRequest implements CallAbortSignal {
  aborted = false;
  reason: unknown = undefined;
  /** Stop the call if the HTTP client goes away (set by the handler, read by the transport). */
  stopOnDisconnect = false;
  /** Answered (or cancelled): notifications about it go nowhere. */
  ended = false;
  private listeners: (() => void)[] | undefined;

  constructor(
    readonly caller: McpCaller,
    private readonly exchange: Exchange,
  ) {}

  /** The call's abort signal: the request itself. */
  get signal(): CallAbortSignal {
    return this;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners?.indexOf(listener) ?? -1;
    if (at >= 0) this.listeners!.splice(at, 1);
  }

  stopWhenClientGone(): void {
    this.stopOnDisconnect = true;
  }

  /** A notification about this request (progress); dropped once it is answered or cancelled. */
  notify(method: string, params: Record<string, unknown>): void {
    if (!this.ended) this.exchange.notify({ method, params, jsonrpc: '2.0' } as JSONRPCNotification);
  }

  abort(reason: string): void {
    this.ended = true;
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new DOMException(reason, 'AbortError');
    // Each listener once, like an AbortSignal's: the list is dropped before they run.
    const listeners = this.listeners ?? [];
    this.listeners = undefined;
    for (const listener of listeners) listener();
  }
}

/**
 * Answers a checked `tools/call` (its params, the request): the result, or a promise of it, or
 * throws what the JSON-RPC error carries (`code`, `message`, `data`), as a `Protocol` handler does.
 */
export type DirectToolCallHandler = (
  params: CheckedToolCall['params'],
  request: DirectRequest,
) => MaybePromise<unknown>;

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

  /**
   * The handler of checked `tools/call` requests, which then bypass the SDK's `Protocol` (ADR 044):
   * no per-message Zod parse, no AbortController, no promise chain, and an answer written before
   * `deliver` returns when the call completes synchronously. Task-augmented calls (when tasks are
   * served) and every other method still go through the `Protocol`.
   */
  directToolCall?: DirectToolCallHandler;

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
        if (
          this.directToolCall &&
          isCheckedToolCall(message) &&
          !(message.params.task && this.acceptsTasks())
        ) {
          this.callDirect(message, this.directToolCall, caller, exchange, keyPrefix);
          continue;
        }
        const id = ++this.nextId;
        const cancelKey = keyPrefix + typeof message.id + String(message.id);
        const slot = exchange.opened();
        this.pending.set(id, { clientId: message.id, slot, cancelKey, exchange, caller });
        this.byClient.set(cancelKey, id);
        exchange.inFlightAs(id);
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

  /**
   * A checked `tools/call` run by the direct handler. Answered at once when the handler answers a
   * value; otherwise registered like any request in flight (so `notifications/cancelled` and a
   * gone client reach it) until its promise settles. A cancelled request is answered with nothing,
   * as the `Protocol` does.
   */
  private callDirect(
    message: CheckedToolCall,
    handler: DirectToolCallHandler,
    caller: McpCaller,
    exchange: Exchange,
    keyPrefix: string,
  ): void {
    const clientId = message.id;
    const params = this.acceptsTasks() || !message.params.task ? message.params : withoutTask(message.params);
    const request = new DirectRequest(caller, exchange);
    const slot = exchange.opened();
    let answer: MaybePromise<unknown>;
    try {
      answer = handler(params as CheckedToolCall['params'], request);
    } catch (err) {
      request.ended = true;
      exchange.respond(errorResponse(clientId, err), slot);
      return;
    }
    if (!(answer instanceof Promise)) {
      request.ended = true;
      exchange.respond(resultResponse(clientId, answer), slot);
      return;
    }
    const id = ++this.nextId;
    const cancelKey = keyPrefix + typeof clientId + String(clientId);
    const pending: Pending = { clientId, slot, cancelKey, exchange, caller, direct: request };
    this.pending.set(id, pending);
    this.byClient.set(cancelKey, id);
    exchange.inFlightAs(id);
    const settled = (response: JSONRPCMessage): void => {
      if (this.pending.get(id) !== pending) return; // cancelled: nothing is answered
      request.ended = true;
      this.settle(id, pending);
      exchange.respond(response, slot);
    };
    answer.then(
      (result) => settled(resultResponse(clientId, result)),
      (err: unknown) => settled(errorResponse(clientId, err)),
    );
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
    for (const id of exchange.requestsInFlight()) {
      const pending = this.pending.get(id);
      if (!(pending?.stopOnDisconnect || pending?.direct?.stopOnDisconnect)) continue;
      const reason = 'the client closed the connection';
      if (pending.direct) pending.direct.abort(reason);
      else
        this.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason },
        });
      this.settle(id, pending);
      exchange.respond(undefined, pending.slot);
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isResponse(message)) {
      const id = message.id;
      const pending = typeof id === 'number' ? this.pending.get(id) : undefined;
      if (!pending) return;
      this.settle(id as number, pending);
      pending.exchange.respond({ ...message, id: pending.clientId } as JSONRPCMessage, pending.slot);
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
    if (pending.direct)
      pending.direct.abort(typeof params?.reason === 'string' ? params.reason : 'cancelled');
    else
      this.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { ...params, requestId: id },
      });
    this.settle(id, pending);
    pending.exchange.respond(undefined, pending.slot);
  }

  private settle(id: number, pending: Pending): void {
    this.pending.delete(id);
    pending.exchange.landed(id);
    if (this.byClient.get(pending.cancelKey) === id) this.byClient.delete(pending.cancelKey);
  }
}

function resultResponse(id: RequestId, result: unknown): JSONRPCMessage {
  return { jsonrpc: '2.0', id, result } as JSONRPCMessage;
}

/** A thrown error as the JSON-RPC error the SDK's `Protocol` would answer for it. */
function errorResponse(id: RequestId, error: unknown): JSONRPCMessage {
  const err = error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  const code = err?.code;
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: Number.isSafeInteger(code) ? (code as number) : RpcErrorCode.InternalError,
      message: typeof err?.message === 'string' ? err.message : 'Internal error',
      ...(err?.data !== undefined ? { data: err.data } : {}),
    },
  };
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
