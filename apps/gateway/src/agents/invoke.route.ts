import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Agent, AgentPrincipal } from '@toolgate/agents';
import { ApiKeyService } from '@toolgate/auth';
import { isTraceparent } from '@toolgate/mcp';
import type { OpenAPIObject } from '@nestjs/swagger';
import { andThen, toJsonSchema, type MaybePromise } from '@toolgate/toolkit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerForError } from '../http/error-envelope.js';
import { sendError } from '../http/error-reply.js';
import { noteRefusal } from '../http/refusal-recorder.js';
import { localeOf } from '../http/request-locale.js';
import { checkRequestPart } from '../http/request-schemas.js';
import { invokeBody, invokeQuery, type InvokeBody, type InvokeQuery } from '@toolgate/contract';
import { InvokeToolUseCase, type InvokeAnswer, type InvokeCommand } from './invoke-tool.usecase.js';
import { ClientGoneSignal } from './client-gone-signal.js';
import { SseStream } from './sse-stream.js';
import { SpanName, tracingEnabled } from '@toolgate/telemetry';
import { inInboundSpan } from '../telemetry/inbound-span.js';
import {
  errorEnvelopeSchema,
  errorResponses,
  KEYED_ROUTE_ERRORS,
  okEnvelopeSchema,
} from '../openapi/envelope-schemas.js';

export const INVOKE_PATH = '/v1/agents/:agentType/tools/:toolName/invoke';

type InvokeRequest = FastifyRequest<{ Params: { agentType: string; toolName: string } }>;

/**
 * The call's abort signal when it may be cut short: a read-only (L0) call whose client is gone has
 * nobody to answer, so it stops. An L1+ call runs to its end whatever the client does — stopping a
 * side effect halfway is worse — and its result stays readable at `GET /v1/calls/:callId`.
 */
function abortSignalFor(agent: Agent, toolName: string, reply: FastifyReply): ClientGoneSignal | undefined {
  return agent.tool(toolName).contract.risk.level === 'L0' ? new ClientGoneSignal(reply.raw) : undefined;
}

/** An object without own enumerable keys (Fastify's parsed query of a URL without one). */
function isEmpty(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/** What the route's steps use, looked up once on the first call. */
interface InvokeServices {
  readonly keys: ApiKeyService;
  readonly invoke: InvokeToolUseCase;
  /** Most calls send no query string: its checked value (defaults filled in) is the same every time. */
  readonly noQuery: InvokeQuery;
  readonly bodyLimit: number;
}

/**
 * One invoke request on its way through the steps, each reading what the steps before it wrote. A
 * class of one fixed shape rather than closures over the request (ADR 022).
 */
class InvokeExchange {
  principal!: AgentPrincipal;
  body!: InvokeBody;
  query!: InvokeQuery;

  constructor(
    readonly request: InvokeRequest,
    readonly reply: FastifyReply,
    readonly services: InvokeServices,
  ) {}
}

/**
 * authorize → check → agent → execute → send. Synchronous end to end when the key and the bindings
 * are cached and the call completes synchronously (a synchronous tool, no Idempotency-Key, hooks
 * that need no I/O): the hot path, where each promise layer is an allocation and a trip through the
 * microtask queue. From the first step that answers a promise, the rest follow it (`andThen`).
 * Throws (or rejects with) what the error envelope answers.
 */
function invoke(x: InvokeExchange): MaybePromise<void> {
  const principal = x.services.keys.authorize(x.request.headers.authorization, ['agent']);
  const checked = andThen(principal, check, x);
  const agent = andThen(checked, agentOf);
  const answer = andThen(agent, execute, x);
  return andThen(answer, send, x);
}

/** The request's body and query against the contract's schemas (INVALID_REQUEST otherwise). */
function check(principal: AgentPrincipal, x: InvokeExchange): InvokeExchange {
  x.principal = principal;
  x.body = checkRequestPart<InvokeBody>(invokeBody, x.request.body);
  x.query = isEmpty(x.request.query)
    ? x.services.noQuery
    : checkRequestPart<InvokeQuery>(invokeQuery, x.request.query);
  return x;
}

/** The caller's agent with the tool bound: unknown agent types and tools answer 404 before anything runs. */
function agentOf(x: InvokeExchange): MaybePromise<Agent> {
  const { agentType, toolName } = x.request.params;
  return x.services.invoke.agentFor(x.principal.tenantId!, agentType, toolName, x.principal);
}

/** Runs the call; a streamed call (SSE) answers itself, and leaves nothing to send. */
function execute(agent: Agent, x: InvokeExchange): MaybePromise<InvokeAnswer | undefined> {
  const { request, reply, principal } = x;
  const { agentType, toolName } = request.params;
  const { headers } = request;
  const key = headers['idempotency-key'];
  const command: InvokeCommand = {
    tenantId: principal.tenantId!,
    agentType,
    toolName,
    principal,
    body: x.body,
    locale: localeOf(request as never),
    view: x.query.view,
    idempotencyKey: typeof key === 'string' ? key : undefined,
    signal: abortSignalFor(agent, toolName, reply),
    traceparent: isTraceparent(headers.traceparent) ? headers.traceparent : undefined,
  };
  if (headers.accept?.includes('text/event-stream')) return stream(x, agent, command);
  return x.services.invoke.execute(agent, command);
}

/** The answer as JSON, with its status, headers and `X-Call-Id`. */
function send(answer: InvokeAnswer | undefined, x: InvokeExchange): void {
  if (answer) sendAnswer(x.reply, answer);
}

function sendAnswer(reply: FastifyReply, answer: InvokeAnswer): void {
  // A call the platform refused (over its quota): recorded like every refusal. One comparison on the ok path.
  if (answer.status >= 400 && 'code' in answer.envelope)
    noteRefusal(reply.request, { status: answer.status, envelope: answer.envelope, callId: answer.callId });
  reply
    .status(answer.status)
    .headers(answer.headers)
    .header('x-call-id', answer.callId)
    .send(answer.envelope);
}

/**
 * The call as server-sent events. Until the first event nothing is written, so a failure (a
 * malformed Idempotency-Key, a conflict) or a platform answer (202, 429...) before it is answered
 * as JSON with its status; after it, the only way left to answer is a last `result` event.
 */
async function stream(x: InvokeExchange, agent: Agent, command: InvokeCommand): Promise<undefined> {
  const { request, reply } = x;
  const sse = new SseStream(reply);
  let answer: InvokeAnswer;
  try {
    answer = await x.services.invoke.execute(agent, Object.assign({}, command, { onEvent: sse.onEvent }));
  } catch (err) {
    if (!sse.started) throw err;
    const path = `${request.method} ${request.url.split('?')[0]}`;
    sse.end(
      undefined,
      answerForError(err, command.locale, { path, bodyLimit: x.services.bodyLimit }).envelope,
    );
    return undefined;
  }
  if (!sse.started && answer.status !== 200) sendAnswer(reply, answer);
  else sse.end(answer.callId, answer.envelope);
  return undefined;
}

/**
 * `POST /v1/agents/:agentType/tools/:toolName/invoke`, registered on Fastify directly rather than
 * through a Nest controller. Measured reason (docs/benchmarks.md, ADR 001): Nest's per-request router
 * machinery — guard, pipe and param factories, response controller — cost more than the whole
 * governed call, and invoke is the one hot path. The route applies exactly the rules the rest of
 * the API does, through the same functions: the API key with the `agent` role, the request
 * schemas, the one error mapping; and it hands the call to the same use case.
 */
export function registerInvokeRoute(app: NestFastifyApplication, bodyLimit: number): void {
  let services: InvokeServices | undefined;
  const resolve = () =>
    (services ??= {
      keys: app.get(ApiKeyService),
      invoke: app.get(InvokeToolUseCase),
      noQuery: Object.freeze(checkRequestPart<InvokeQuery>(invokeQuery, {})),
      bodyLimit,
    });

  /** `invoke` with its failures answered as envelopes; a promise only when the call is pending. */
  const answer = (request: InvokeRequest, reply: FastifyReply): void | Promise<void> => {
    try {
      const pending = invoke(new InvokeExchange(request, reply, resolve()));
      if (pending) return pending.catch((err: unknown) => void sendError(request, reply, err, bodyLimit));
    } catch (err) {
      sendError(request, reply, err, bodyLimit);
    }
  };

  app
    .getHttpAdapter()
    .getInstance()
    .post(
      INVOKE_PATH,
      {
        // Errors Fastify raises before the handler (bad JSON, too large, wrong content type) get the
        // same envelope as everything else, whichever error handler the instance has by then.
        errorHandler: (err, request, reply) => void sendError(request, reply, err, bodyLimit),
      },
      // On the hot path the answer is sent before the handler returns, and it returns nothing: a
      // synchronous handler's non-undefined return value is a payload Fastify would send.
      (request: InvokeRequest, reply: FastifyReply) =>
        tracingEnabled()
          ? inInboundSpan(SpanName.INVOKE, INVOKE_PATH, request, reply, async () => answer(request, reply))
          : answer(request, reply),
    );
}

/**
 * The OpenAPI description of the invoke route, which Swagger cannot see (it is not a controller).
 * A tool's own failure is 200 on purpose (clients retry 5xx; a retried side effect is a second one),
 * so 200 is either envelope.
 */
export function documentInvokeRoute(document: OpenAPIObject): void {
  const errors = errorResponses([
    ...KEYED_ROUTE_ERRORS,
    'TOOL_NOT_FOUND',
    'NOT_FOUND',
    'POLICY_DENIED',
    'IDEMPOTENCY_CONFLICT',
    'PAYLOAD_TOO_LARGE',
    'RATE_LIMITED',
    'DATA_EXPORT_BLOCKED',
    'AUDIT_UNAVAILABLE',
  ]);
  delete errors['202'];
  document.paths['/v1/agents/{agentType}/tools/{toolName}/invoke'] = {
    post: {
      operationId: 'invokeTool',
      tags: ['agents'],
      summary: 'Invoke a bound tool',
      description:
        'Runs the tool under governance (input validation, time limit, approval, idempotency, quotas, audit) and answers its envelope; the header `X-Call-Id` names the call. A tool’s outcome is 200 whatever it is (clients retry 5xx, and a retried side effect is a second one); a call parked on approval is 202. With `Accept: text/event-stream` the call streams `label` and `partial` events and one `result`.',
      security: [{ bearer: [] }],
      parameters: [
        { name: 'agentType', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'toolName', in: 'path', required: true, schema: { type: 'string' } },
        {
          name: 'view',
          in: 'query',
          required: false,
          description:
            '`model`: what a model would see (the tool’s toModelOutput projection) instead of the full output',
          schema: { type: 'string', enum: ['full', 'model'] },
        },
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'The same key with the same input from the same API key answers the first result again without running the tool; with other input, 409',
          schema: { type: 'string' },
        },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: toJsonSchema(invokeBody) as Record<string, unknown> } },
      },
      responses: {
        '200': {
          description:
            'The tool outcome: success, or a tool failure (INVALID_INPUT, TIMEOUT, UPSTREAM_ERROR, OUTPUT_INVALID or the tool’s own code) — 200 on purpose, so clients do not retry side effects',
          content: {
            'application/json': {
              schema: { oneOf: [okEnvelopeSchema('any'), { $ref: '#/components/schemas/ErrorEnvelope' }] },
            },
            'text/event-stream': {
              schema: { type: 'string', description: 'label / partial events, then one result event' },
            },
          },
        },
        '202': {
          description:
            'APPROVAL_PENDING: parked until an approver decides; the body has callId and approvalId',
          content: { 'application/json': { schema: errorEnvelopeSchema(['APPROVAL_PENDING']) } },
        },
        ...errors,
      },
    },
  } as OpenAPIObject['paths'][string];
}
