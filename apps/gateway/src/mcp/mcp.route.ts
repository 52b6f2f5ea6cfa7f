import { openEventStream } from '../http/sse.js';
import { MethodNotAllowedException } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  ErrorCode as RpcErrorCode,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { AgentFactory, type Agent } from '@toolgate/agents';
import { ApiKeyService, PRINCIPAL_PROPERTY, type Principal } from '@toolgate/auth';
import {
  checkModernMessage,
  checkToolCall,
  ERROR_META,
  isModernVersion,
  McpServerService,
  preserializedJson,
  SERVED_PROTOCOL_VERSIONS,
  unsupportedVersion,
  type McpRefusal,
  traceparentOf,
  type McpCaller,
  type McpReplyWriter,
} from '@toolgate/mcp';
import { SpanName, tracingEnabled } from '@toolgate/telemetry';
import { inInboundSpan } from '../telemetry/inbound-span.js';
import { andThen, ErrorCode, mcpMessage, type ErrorEnvelope, type MaybePromise } from '@toolgate/toolkit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerForError } from '../http/error-envelope.js';
import { statusOfThrown } from '../http/error-status.js';
import { noteRefusal } from '../http/refusal-recorder.js';
import { REFUSES_METHOD } from '../http/method-not-allowed.js';
import { localeOf } from '../http/request-locale.js';

export const MCP_PATH = '/mcp/:agentType';

type McpRequest = FastifyRequest<{ Params: { agentType: string } }>;

/** Batches were in the 2025-03-26 revision and left in 2025-06-18. */
const BATCH_VERSIONS: ReadonlySet<string> = new Set(['2025-03-26', '2024-11-05', '2024-10-07']);

/** A refusal before any message reaches the server: an HTTP status and a JSON-RPC error body. */
class McpHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** The id of the request refused, when it could be read (null otherwise). */
    readonly id: string | number | null = null,
  ) {
    super(message);
  }

  static of(refusal: McpRefusal, id: string | number | null = null): McpHttpError {
    return new McpHttpError(refusal.status, refusal.code, refusal.message, refusal.data, id);
  }
}

/** What the route's steps use, looked up once on the first request. */
interface McpDeps {
  readonly keys: ApiKeyService;
  readonly agents: AgentFactory;
  readonly mcp: McpServerService;
}

/**
 * One MCP POST on its way through the steps, and the writer of its answer (one object for both:
 * ADR 022's fixed-shape state instead of closures per request). The answer is JSON when no stream
 * is needed, SSE once a notification comes; every refusal answered inside it is recorded.
 */
class McpPost implements McpReplyWriter {
  version!: string;
  principal!: Principal;
  messages!: JSONRPCMessage[];
  batch = false;
  readonly canStream: boolean;
  /** The answer has ended; `finish` resolves the handler's promise when it ends later. */
  ended = false;
  finish: (() => void) | undefined;
  private streaming = false;
  private hasToolCalls = false;

  constructor(
    readonly request: McpRequest,
    readonly reply: FastifyReply,
    readonly deps: McpDeps,
  ) {
    const accept = request.headers.accept ?? '';
    this.canStream = accept.includes('text/event-stream') || accept.includes('*/*');
  }

  /** The messages of the body, checked (tools/call in one pass: ADR 044). */
  read(body: unknown): void {
    ({ messages: this.messages, batch: this.batch } = messagesOf(body, this.version));
    for (const message of this.messages)
      if ('method' in message && message.method === 'tools/call') this.hasToolCalls = true;
  }

  event(message: JSONRPCMessage): void {
    if (this.hasToolCalls) recordRefusal(this, message);
    const raw = this.reply.raw;
    if (!this.streaming) {
      this.streaming = true;
      openEventStream(this.reply);
    }
    if (!raw.destroyed && !raw.writableEnded) raw.write(`event: message\ndata: ${jsonOf(message)}\n\n`);
  }

  end(responses: JSONRPCMessage[], batch: boolean): void {
    if (this.hasToolCalls) for (const message of responses) recordRefusal(this, message);
    const { reply } = this;
    const raw = reply.raw;
    if (this.streaming) {
      if (!raw.writableEnded) raw.end();
    } else if (!reply.sent && !raw.destroyed) {
      if (responses.length === 0) void reply.status(202).send();
      else
        void reply
          .status(200)
          .type('application/json; charset=utf-8')
          .send(batch ? `[${responses.map(jsonOf).join(',')}]` : bodyOf(responses[0]!));
    }
    this.ended = true;
    this.finish?.();
  }
}

/**
 * version → key → messages → agent → deliver. Synchronous end to end when the key and the agent
 * are cached and the call completes synchronously (the REST invoke route's hot path, ADR 022 and
 * ADR 044); from the first step that answers a promise, the rest follow it (`andThen`). Throws (or
 * rejects with) what the refusal answers.
 */
function post(x: McpPost): MaybePromise<void> {
  x.version = protocolVersionOf(x.request);
  const principal = x.deps.keys.authorize(x.request.headers.authorization, ['agent']);
  const agent = andThen(principal, checkMessages, x);
  return andThen(agent, deliver, x);
}

/** The body as JSON-RPC messages (refused before any is handled), then the key's agent. */
function checkMessages(principal: Principal, x: McpPost): MaybePromise<Agent> {
  const { request } = x;
  x.principal = principal;
  // The refusal recorder reads who asked from here, as it does after the REST guard.
  (request as unknown as Record<string, unknown>)[PRINCIPAL_PROPERTY] = principal;
  x.read(request.body);
  if (isModernVersion(x.version)) checkModern(request, x.messages, x.version);
  return x.deps.agents.create(principal.tenantId!, request.params.agentType, principal);
}

/** Hands the messages to the server; a promise only while an answer is still to come. */
function deliver(agent: Agent, x: McpPost): MaybePromise<void> {
  const { request, reply, principal } = x;
  const caller: McpCaller = {
    principal,
    tenantId: principal.tenantId!,
    agent,
    locale: localeOf(request as never),
    traceparent: traceparentOf(request.headers.traceparent),
    protocolVersion: x.version,
  };
  const exchange = x.deps.mcp.deliver(x.messages, x.batch, caller, x);
  if (x.ended) return undefined;
  return new Promise<void>((done) => {
    x.finish = done;
    reply.raw.once('close', () => {
      if (!reply.raw.writableEnded) {
        x.deps.mcp.clientGone(exchange);
        // Nothing will be sent: Fastify is told so rather than left waiting for an answer.
        if (!reply.sent) reply.hijack();
      }
      done();
    });
  });
}

/**
 * `POST /mcp/:agentType`: the MCP Streamable HTTP endpoint of one agent type, stateless (no
 * session: any gateway answers any request). Registered on Fastify directly, like the invoke
 * route, because it is a hot path. The key decides the tenant and the agent types it may use,
 * exactly as on REST; another tenant's agent type, or one the key may not use, is 404.
 * `GET` (the standalone stream) and `DELETE` (sessions) answer 405: a stateless server has neither.
 */
export function registerMcpRoute(
  app: NestFastifyApplication,
  bodyLimit: number,
  allowedOrigins: readonly string[],
): void {
  let deps: McpDeps | undefined;
  const resolve = () =>
    (deps ??= {
      keys: app.get(ApiKeyService),
      agents: app.get(AgentFactory),
      mcp: app.get(McpServerService),
    });
  const refuse = (request: FastifyRequest, reply: FastifyReply, err: unknown): void =>
    void sendRpcError(reply, err instanceof McpHttpError ? err : fromError(err, request, bodyLimit));

  /** `post` with its refusals answered; a promise only while an answer is pending. */
  const answer = (request: McpRequest, reply: FastifyReply): void | Promise<void> => {
    try {
      const pending = post(new McpPost(request, reply, resolve()));
      if (pending) return pending.catch((err: unknown) => refuse(request, reply, err));
    } catch (err) {
      refuse(request, reply, err);
    }
  };

  const fastify = app.getHttpAdapter().getInstance();
  const onRequest = originGuard(new Set(allowedOrigins));
  fastify.post<{ Params: { agentType: string } }>(
    MCP_PATH,
    {
      onRequest,
      // Errors Fastify raises before the handler (bad JSON, too large, wrong content type) answer
      // as JSON-RPC errors: a body that is not JSON is the spec's parse error.
      errorHandler: (err, request, reply) => {
        const answer = answerForError(err, localeOf(request as never), { path: 'POST /mcp', bodyLimit });
        const code = answer.status === 400 ? RpcErrorCode.ParseError : RpcErrorCode.InvalidRequest;
        sendRpcError(reply, new McpHttpError(answer.status, code, answer.envelope.error, answer.envelope));
      },
    },
    // As on REST invoke: a call that completes synchronously is answered before the handler
    // returns, which then returns nothing (a synchronous handler's value is a payload to Fastify).
    (request: McpRequest, reply: FastifyReply) =>
      tracingEnabled()
        ? inInboundSpan(SpanName.MCP, MCP_PATH, request, reply, async () => answer(request, reply))
        : answer(request, reply),
  );
  // The refusal carries the error envelope in `data`, like every other refusal of the route.
  const notAllowed = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const message =
      'Method not allowed: this MCP server is stateless (no session, no standalone stream); POST JSON-RPC messages';
    const answer = answerForError(new MethodNotAllowedException(message), localeOf(request as never), {
      path: `${request.method} /mcp`,
      bodyLimit,
    });
    return sendRpcError(
      reply.header('allow', 'POST'),
      new McpHttpError(405, RpcErrorCode.ConnectionClosed, message, answer.envelope),
    );
  };
  // Refusals, not methods of the path: Allow (here and for any other method) says POST only.
  // A body Fastify cannot parse (a DELETE with text, say) changes nothing: the method is refused.
  const refusal = {
    onRequest,
    config: REFUSES_METHOD,
    errorHandler: (_err: unknown, request: FastifyRequest, reply: FastifyReply) => notAllowed(request, reply),
  };
  fastify.get(MCP_PATH, refusal, notAllowed);
  fastify.delete(MCP_PATH, refusal, notAllowed);
}

/**
 * The transport spec's DNS-rebinding rule: a request whose `Origin` is present and not allowed is
 * answered 403 before anything else (before the key is looked up or the body read). A page on
 * another site — or one whose host name was rebound to this gateway's address — carries its own
 * origin, which is never in the list; agents and SDKs send no Origin and pass. "null" (sandboxed
 * frames, file: pages) is not an allowed origin either.
 */
function originGuard(allowed: ReadonlySet<string>) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const origin = request.headers.origin;
    if (origin === undefined || allowed.has(origin)) return done();
    const locale = localeOf(request as never);
    const envelope: ErrorEnvelope = {
      error: mcpMessage('originNotAllowed', locale),
      code: ErrorCode.FORBIDDEN,
      suggestedAction: mcpMessage('originNotAllowedAction', locale),
    };
    sendRpcError(reply, new McpHttpError(403, RpcErrorCode.InvalidRequest, envelope.error, envelope));
  };
}

/**
 * `MCP-Protocol-Version`: absent means the spec's default (a client older than 2025-06-18); one
 * the server does not speak is 400 UnsupportedProtocolVersion (-32022) listing those it does,
 * which a 2026-07-28 client reads as "retry with one of these" and an older one as a refusal.
 */
function protocolVersionOf(request: FastifyRequest): string {
  const header = request.headers['mcp-protocol-version'];
  if (header === undefined) return DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  if (typeof header === 'string' && SERVED_PROTOCOL_VERSIONS.includes(header)) return header;
  throw McpHttpError.of(unsupportedVersion(String(header)));
}

/** A 2026-07-28 request checked before delivery (headers mirror the body, `_meta` complete). */
function checkModern(request: FastifyRequest, messages: readonly JSONRPCMessage[], version: string): void {
  const headers = { method: request.headers['mcp-method'], name: request.headers['mcp-name'] };
  for (const message of messages) {
    const refusal = checkModernMessage(message, version, headers);
    if (refusal) throw McpHttpError.of(refusal, 'id' in message ? message.id : null);
  }
}

/** The body as JSON-RPC messages: one, or a batch where the protocol version has batches. */
function messagesOf(body: unknown, version: string): { messages: JSONRPCMessage[]; batch: boolean } {
  if (!Array.isArray(body)) return { messages: [checked(body)], batch: false };
  if (!BATCH_VERSIONS.has(version))
    throw new McpHttpError(
      400,
      RpcErrorCode.InvalidRequest,
      `JSON-RPC batches are not part of MCP ${version}`,
    );
  if (body.length === 0 || body.length > 100)
    throw new McpHttpError(400, RpcErrorCode.InvalidRequest, 'A batch holds 1 to 100 messages');
  return { messages: body.map(checked), batch: true };
}

function checked(message: unknown): JSONRPCMessage {
  const call = checkToolCall(message);
  if (call) return call;
  const parsed = JSONRPCMessageSchema.safeParse(message);
  if (parsed.success) return parsed.data;
  throw new McpHttpError(
    400,
    RpcErrorCode.InvalidRequest,
    'Invalid Request: the body is not a JSON-RPC 2.0 message (jsonrpc "2.0", a method or a result/error, an id that is a string or a number)',
  );
}

/** A platform error (auth, unknown agent type, database) as a JSON-RPC refusal with its HTTP status. */
function fromError(err: unknown, request: FastifyRequest, bodyLimit: number): McpHttpError {
  const answer = answerForError(err, localeOf(request as never), { path: 'POST /mcp', bodyLimit });
  noteRefusal(request, answer, err);
  const code = answer.status >= 500 ? RpcErrorCode.InternalError : RpcErrorCode.InvalidRequest;
  const error = new McpHttpError(answer.status, code, answer.envelope.error, answer.envelope);
  (error as { headers?: Readonly<Record<string, string>> }).headers = answer.headers;
  return error;
}

function sendRpcError(reply: FastifyReply, err: McpHttpError): FastifyReply {
  if (reply.sent || reply.raw.destroyed) return reply;
  const headers = (err as { headers?: Record<string, string> }).headers;
  if (headers) void reply.headers(headers);
  // RFC 6750: a Bearer-protected resource says so on 401.
  if (err.status === 401)
    void reply.header('www-authenticate', 'Bearer realm="toolgate", error="invalid_token"');
  const envelope = err.data as ErrorEnvelope | undefined;
  return reply
    .status(err.status)
    .type('application/json; charset=utf-8')
    .send({
      jsonrpc: '2.0',
      id: err.id,
      error: { code: err.code, message: err.message, ...(envelope ? { data: envelope } : {}) },
    });
}

/**
 * Hands a refusal answered inside a response to the refusal recorder, as REST's refusals are
 * (issue 23): a `tools/call` result with `isError` whose envelope (`_meta`) carries a recorded
 * code, or a JSON-RPC error carrying one in `data` (an unknown tool). The answer itself is 200 over
 * MCP, so the status recorded is the one REST gives the same code. The tool's name is looked up
 * only for a refusal (most answers are not).
 */
function recordRefusal(x: McpPost, message: JSONRPCMessage): void {
  const id = 'id' in message ? message.id : undefined;
  if (id === undefined) return;
  const envelope = refusalEnvelopeOf(message);
  if (!envelope) return;
  const call = x.messages.find(
    (m) => 'method' in m && m.method === 'tools/call' && 'id' in m && m.id === id,
  ) as { params?: { name?: unknown } } | undefined;
  const name = call?.params?.name;
  if (typeof name !== 'string') return;
  noteRefusal(x.request, {
    status: statusOfThrown(envelope.code),
    envelope,
    callId: envelope.callId,
    tool: name.slice(0, 200),
  });
}

/** The error envelope a response carries: an `isError` tool result's `_meta`, or an error's `data`. */
function refusalEnvelopeOf(message: JSONRPCMessage): ErrorEnvelope | undefined {
  const candidate =
    'error' in message
      ? (message.error as { data?: unknown }).data
      : 'result' in message && (message.result as { isError?: unknown }).isError === true
        ? (message.result._meta as Record<string, unknown> | undefined)?.[ERROR_META]
        : undefined;
  const code = (candidate as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? (candidate as ErrorEnvelope) : undefined;
}

/** A message's JSON as text (stream events, batches). */
function jsonOf(message: JSONRPCMessage): string {
  const body = bodyOf(message);
  return typeof body === 'string' ? body : body.toString('utf8');
}

const CLOSE_BRACE = Buffer.from('}');

/** A message's JSON; a result serialized ahead of time (a cached `tools/list`) is spliced in as bytes. */
function bodyOf(message: JSONRPCMessage): string | Buffer {
  const raw = 'result' in message ? preserializedJson(message.result) : undefined;
  if (raw === undefined) return JSON.stringify(message);
  const id = JSON.stringify((message as { id: unknown }).id);
  return Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${id},"result":`), raw, CLOSE_BRACE]);
}
