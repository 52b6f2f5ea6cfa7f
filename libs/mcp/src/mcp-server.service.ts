import { Inject, Injectable, Optional, type OnModuleInit } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { z } from 'zod';
import {
  CallToolRequestSchema,
  ErrorCode as RpcErrorCode,
  InitializeRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolRequest,
  type CallToolResult,
  type CreateTaskResult,
  type JSONRPCMessage,
  type RequestId,
  type ServerCapabilities,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { searchDeferred, unwrapToolCall, type AgentInvokeOptions } from '@toolgate/agents';
import { CallReaderService, IdempotencyService, requestDigest } from '@toolgate/calls';
import {
  andThen,
  ErrorCode,
  mcpMessage,
  ok,
  ToolgateError,
  type CallAbortSignal,
  type EffectiveTool,
  type Envelope,
  type ErrorEnvelope,
  type Locale,
  type MaybePromise,
  type ToolCallEvent,
  type ToolCallResult,
} from '@toolgate/toolkit';
import { HttpMultiplexTransport, type Exchange, type McpReplyWriter } from './http-multiplex-transport.js';
import type { McpCaller } from './mcp-caller.js';
import { envelopeResult, toCallToolResult } from './mcp-results.js';
import { MCP_TASK_SUPPORT, type McpTaskSupport } from './mcp-task-support.js';
import { RpcError } from './rpc-error.js';
import { CALL_STATUS, McpToolLists } from './mcp-tool-list.js';
import {
  asModernResult,
  CACHE_HINTS,
  isModernVersion,
  MCP_SERVER_INFO,
  SERVED_PROTOCOL_VERSIONS,
} from './protocol-revisions.js';
import { traceparentOf } from './traceparent.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * What `tools/call` needs of the request it answers, whichever way it came: the direct path
 * (`DirectRequest`, ADR 044) or the SDK's `Protocol` (a task-augmented call, `SdkToolCall`).
 */
interface ToolCallContext {
  readonly caller: McpCaller;
  /** Fires on `notifications/cancelled`, and on a gone client once `stopWhenClientGone` was called. */
  readonly signal: CallAbortSignal;
  /** The request's internal id where the `Protocol` handles it (what a task is created with). */
  readonly requestId?: RequestId;
  stopWhenClientGone(): void;
  notify(method: string, params: Record<string, unknown>): void;
}

/** A `tools/call` the SDK's `Protocol` delivered (a task-augmented call, or one the route did not check). */
class SdkToolCall implements ToolCallContext {
  readonly caller: McpCaller;
  readonly signal: CallAbortSignal;
  readonly requestId: RequestId;

  constructor(
    private readonly extra: Extra,
    private readonly transport: HttpMultiplexTransport,
  ) {
    this.caller = transport.callerOf(extra.requestId);
    this.signal = extra.signal;
    this.requestId = extra.requestId;
  }

  stopWhenClientGone(): void {
    this.transport.stopOnDisconnect(this.requestId);
  }

  notify(method: string, params: Record<string, unknown>): void {
    // A client gone or a reply already ended loses a progress note, never the call.
    this.extra.sendNotification({ method, params } as ServerNotification).catch(() => undefined);
  }
}

/**
 * Toolgate as an MCP server: ONE SDK `Server` per process, on a transport that multiplexes the
 * HTTP requests of every client (see HttpMultiplexTransport). The handlers read the caller of each
 * request from the transport — the tenant, key and agent the route established — never from the
 * JSON-RPC body, and every tool call goes through `Agent.invoke` (the governed pipeline).
 */
@Injectable()
export class McpServerService implements OnModuleInit {
  private readonly server: Server;
  private readonly capabilities: ServerCapabilities;
  private readonly transport: HttpMultiplexTransport;
  private readonly lists: McpToolLists;

  constructor(
    private readonly calls: CallReaderService,
    private readonly idempotency: IdempotencyService,
    @Optional() @Inject(MCP_TASK_SUPPORT) private readonly tasks?: McpTaskSupport,
  ) {
    this.capabilities = { tools: { listChanged: false }, ...(tasks?.capabilities ?? {}) };
    this.lists = new McpToolLists(tasks !== undefined);
    this.server = new Server(MCP_SERVER_INFO, { capabilities: this.capabilities });
    this.transport = new HttpMultiplexTransport(() => this.tasks !== undefined);
    this.transport.directToolCall = (params, request) => this.answerToolCall(params, request);
  }

  async onModuleInit(): Promise<void> {
    const callerOf = (id: RequestId) => this.transport.callerOf(id);
    // Replaces the SDK's own: the instructions are the agent type's, and a stateless server must
    // not remember one client's capabilities for all the others.
    this.handle(InitializeRequestSchema, (request, extra) => {
      const caller = callerOf(extra.requestId);
      const asked = request.params.protocolVersion;
      const description = caller.agent.binding.description;
      return {
        protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION,
        capabilities: this.capabilities,
        serverInfo: MCP_SERVER_INFO,
        ...(description ? { instructions: description } : {}),
      };
    });
    this.handle(DiscoverRequestSchema, (_request, extra) => this.discover(callerOf(extra.requestId)));
    this.handle(ListToolsRequestSchema, (_request, extra) => {
      const caller = callerOf(extra.requestId);
      const list = this.lists.of(caller.agent, caller.locale);
      return isModernVersion(caller.protocolVersion) ? list.modernResult : list.result;
    });
    this.handle(CallToolRequestSchema, (request, extra) =>
      this.answerToolCall(request.params, new SdkToolCall(extra, this.transport)),
    );
    this.tasks?.install(this.server, callerOf, (id) => this.transport.stopOnDisconnect(id));
    await this.server.connect(this.transport);
  }

  /**
   * `server/discover` (2026-07-28): the revisions served, the capabilities of that revision (tools;
   * tasks are an extension there, not offered), the agent type's description as instructions.
   */
  private discover(caller: McpCaller): Record<string, unknown> {
    const description = caller.agent.binding.description;
    return asModernResult({
      supportedVersions: [...SERVED_PROTOCOL_VERSIONS],
      capabilities: { tools: { listChanged: false } },
      ...(description ? { instructions: description } : {}),
      ...CACHE_HINTS,
    });
  }

  /**
   * Registers a handler that gets the request checked by `schema` once, and a malformed one
   * answered -32602 (Invalid params). The SDK's own registration parses every request with the
   * schema, and `tools/call` twice more (request and result) in `Server`; the result here is built
   * by this code from typed parts. The SDK still sees a schema for the method (its capability
   * checks run), just one that only looks at the method name.
   */
  private handle<S extends HandledSchema>(
    schema: S,
    handler: (request: z.infer<S>, extra: Extra) => unknown,
  ): void {
    const method = (schema.shape.method as unknown as { value: string }).value;
    const byMethod = z.looseObject({ method: z.literal(method) });
    Protocol.prototype.setRequestHandler.call(
      this.server,
      byMethod as never,
      ((request: unknown, extra: Extra) => {
        const checked = schema.safeParse(request);
        if (!checked.success)
          throw new RpcError(
            RpcErrorCode.InvalidParams,
            `Invalid ${method} params: ${firstIssue(checked.error)}`,
          );
        return handler(checked.data as z.infer<S>, extra);
      }) as never,
    );
  }

  /**
   * Hands the messages of one HTTP request to the server; the writer carries the answers back
   * (before this returns, when every request of it completed synchronously). Answers the exchange,
   * for `clientGone` if the HTTP client goes away before the end.
   */
  deliver(
    messages: readonly JSONRPCMessage[],
    batch: boolean,
    caller: McpCaller,
    writer: McpReplyWriter,
  ): Exchange {
    return this.transport.deliver(messages, batch, caller, writer);
  }

  /** The HTTP client of `exchange` went away before its answer (see HttpMultiplexTransport.clientGone). */
  clientGone(exchange: Exchange): void {
    this.transport.clientGone(exchange);
  }

  /** `tools/call`: the result as the request's revision wants it; a value when the call completed synchronously. */
  private answerToolCall(
    params: CallToolRequest['params'],
    request: ToolCallContext,
  ): MaybePromise<CallToolResult | CreateTaskResult> {
    const result = this.callTool(params, request);
    return isModernVersion(request.caller.protocolVersion) ? andThen(result, asModernResult) : result;
  }

  private callTool(
    params: CallToolRequest['params'],
    request: ToolCallContext,
  ): MaybePromise<CallToolResult | CreateTaskResult> {
    const caller = request.caller;
    const { agent, locale } = caller;
    const { name, arguments: args = {} } = params;
    const target = this.lists.of(agent, locale).targets.get(name);
    if (!target) throw unknownTool(name, locale);
    const modern = isModernVersion(caller.protocolVersion);
    // On 2026-07-28 tasks are an extension this server does not offer: a task request runs plainly.
    const task = modern ? undefined : (params as { task?: { ttl?: number } }).task;
    // The meta-tools answer at once and list no taskSupport: a task request for them is refused
    // as the 2025-11-25 spec says for tools that do not support tasks.
    if (task && this.tasks && (target.kind === 'status' || target.kind === 'search'))
      throw new RpcError(RpcErrorCode.MethodNotFound, mcpMessage('noTaskSupport', locale, { tool: name }));
    if (target.kind === 'status') return this.callStatus(caller, args);
    if (target.kind === 'search')
      return envelopeResult(ok(searchDeferred(agent, args.query, locale)), locale);
    let toolName = name;
    let input: unknown = args;
    if (target.kind === 'call') {
      const unwrapped = unwrapToolCall(args, locale);
      if ('code' in unwrapped) return envelopeResult(unwrapped, locale);
      // tool_call reaches any bound tool (deferred or not), exactly as in agent runs.
      if (!agent.binding.tools.has(unwrapped.name)) throw unknownTool(unwrapped.name, locale);
      ({ name: toolName, input } = unwrapped);
    }
    const meta = params._meta as Record<string, unknown> | undefined;
    const traceparent = traceparentOf(meta?.traceparent, caller.traceparent);
    if (task && this.tasks) {
      // The transport sends task-augmented calls through the Protocol, which gives them an id.
      if (request.requestId === undefined) throw new Error('a task-augmented tools/call needs a request id');
      return this.tasks.createTask({
        caller,
        toolName,
        input: (input ?? {}) as Record<string, unknown>,
        task,
        traceparent,
        requestId: request.requestId,
      });
    }
    const tool = agent.tool(toolName);
    // A gone client stops a read-only call (nobody to answer); L1+ runs to its end, as on REST.
    // On 2026-07-28 closing the response is the client's way to cancel (Cancellation): any call.
    if (modern || tool.contract.risk.level === 'L0') request.stopWhenClientGone();
    const progressToken = meta?.progressToken;
    const options: AgentInvokeOptions = {
      locale,
      signal: request.signal,
      face: 'mcp',
      traceparent,
      attributes: { keyId: caller.principal.principalId },
      onEvent:
        typeof progressToken === 'string' || typeof progressToken === 'number'
          ? progressReporter(progressToken, (n) => request.notify('notifications/progress', n))
          : undefined,
    };
    if (!mayPark(tool)) return andThen(agent.invoke(toolName, input, options), toCallToolResult, locale);
    return this.invokeParkedOnce(caller, toolName, input, options);
  }

  /**
   * A call that may wait for a person, run so that retries share it: MCP clients retry a failed
   * tool call with no key to say it is the same call (LangChain runs did, and parked a second
   * approval), so an identical call of the same key while the first is parked answers that one.
   */
  private async invokeParkedOnce(
    caller: McpCaller,
    toolName: string,
    input: unknown,
    options: AgentInvokeOptions,
  ): Promise<CallToolResult> {
    const { agent, principal, locale } = caller;
    let ran: ToolCallResult | undefined;
    const answer = await this.idempotency.coalesceParked(
      {
        tenantId: caller.tenantId,
        digest: requestDigest(principal.principalId, agent.agentType, toolName, input ?? {}),
      },
      async (callId, identity) => {
        ran = await agent.invoke(toolName, input, {
          ...options,
          callId,
          idempotencyIdentity: identity === callId ? undefined : identity,
        });
        return { status: 200, callId: ran.callId, envelope: ran.envelope };
      },
    );
    // Not run here: the answer of the identical call already parked (its approval pending).
    const result: ToolCallResult = ran ?? {
      callId: answer.callId,
      envelope: answer.envelope,
      stage: 'stopped',
      durationMs: 0,
    };
    return toCallToolResult(result, locale);
  }

  /** `toolgate_call_status`: what `GET /v1/calls/:callId` answers this key. */
  private async callStatus(caller: McpCaller, args: Record<string, unknown>): Promise<CallToolResult> {
    const callId = args.callId;
    if (typeof callId !== 'string' || !callId || callId.length > 200)
      throw new RpcError(RpcErrorCode.InvalidParams, `${CALL_STATUS} needs {"callId": "<the call id>"}`);
    let envelope: Envelope;
    try {
      envelope = ok(await this.calls.view(caller.principal, callId));
    } catch (err) {
      if (!(err instanceof ToolgateError)) throw err;
      envelope = err.toEnvelope(caller.locale);
    }
    return envelopeResult(envelope, caller.locale);
  }
}

/**
 * Progress for async-generator tools: one notification per yielded snapshot, with the label the
 * snapshot gets (emitted synchronously right after it, hence the microtask).
 */
function progressReporter(
  progressToken: string | number,
  send: (params: { progressToken: string | number; progress: number; message?: string }) => void,
): (event: ToolCallEvent) => void {
  let progress = 0;
  let label: string | undefined;
  return (event) => {
    if (event.type === 'label') {
      label = event.text;
      return;
    }
    progress++;
    const n = progress;
    queueMicrotask(() => send({ progressToken, progress: n, ...(label ? { message: label } : {}) }));
  };
}

/** Whether a call of `tool` may park for a person (what ApprovalGate asks: L3, or an approval mode). */
function mayPark(tool: EffectiveTool): boolean {
  return tool.contract.risk.level === 'L3' || tool.approval !== 'never';
}

/** `server/discover` (2026-07-28): no parameters beyond `_meta` (checked by the route). */
const DiscoverRequestSchema = z.looseObject({
  method: z.literal('server/discover'),
  params: z.looseObject({}).optional(),
});

type HandledSchema =
  | typeof InitializeRequestSchema
  | typeof ListToolsRequestSchema
  | typeof CallToolRequestSchema
  | typeof DiscoverRequestSchema;

/** A short, readable account of what was wrong with the params. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || '(params)'}: ${issue.message}` : 'malformed';
}

/** The spec's unknown-tool error (-32602), with the envelope in `data` like every other refusal. */
function unknownTool(name: string, locale: Locale): RpcError {
  const message = mcpMessage('unknownTool', locale, { tool: name.slice(0, 200) });
  const envelope: ErrorEnvelope = {
    error: message,
    code: ErrorCode.TOOL_NOT_FOUND,
    suggestedAction: mcpMessage('toolNotFoundAction', locale),
  };
  return new RpcError(RpcErrorCode.InvalidParams, message, envelope);
}
