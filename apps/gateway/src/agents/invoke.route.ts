import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Agent } from '@toolgate/agents';
import { ApiKeyService } from '@toolgate/auth';
import { traceparentOf } from '@toolgate/mcp';
import type { OpenAPIObject } from '@nestjs/swagger';
import { toJsonSchema } from '@toolgate/toolkit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerForError } from '../http/error-envelope.js';
import { sendError } from '../http/error-reply.js';
import { localeOf } from '../http/request-locale.js';
import { checkRequestPart } from '../http/request-schemas.js';
import { invokeBody, invokeQuery, type InvokeBody, type InvokeQuery } from '@toolgate/contract';
import { InvokeToolUseCase, type InvokeAnswer, type InvokeCommand } from './invoke-tool.usecase.js';
import { ClientGoneSignal } from './client-gone-signal.js';
import { SseStream } from './sse-stream.js';
import { SpanName } from '@toolgate/telemetry';
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
 * The call's command with an abort signal when it may be cut short: a read-only (L0) call whose
 * client is gone has nobody to answer, so it stops. An L1+ call runs to its end whatever the
 * client does — stopping a side effect halfway is worse — and its result stays readable at
 * `GET /v1/calls/:callId`.
 */
function abortableCommand(command: InvokeCommand, agent: Agent, reply: FastifyReply): InvokeCommand {
  if (agent.tool(command.toolName).contract.risk.level !== 'L0') return command;
  return { ...command, signal: new ClientGoneSignal(reply.raw) };
}

/** An object without own enumerable keys (Fastify's parsed query of a URL without one). */
function isEmpty(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

function sendAnswer(reply: FastifyReply, answer: InvokeAnswer): FastifyReply {
  return reply
    .status(answer.status)
    .headers(answer.headers)
    .header('x-call-id', answer.callId)
    .send(answer.envelope);
}

/**
 * `POST /v1/agents/:agentType/tools/:toolName/invoke`, registered on Fastify directly rather than
 * through a Nest controller. Measured reason (README, "Benchmarks"): Nest's per-request router
 * machinery — guard, pipe and param factories, response controller — cost more than the whole
 * governed call, and invoke is the one hot path. The route applies exactly the rules the rest of
 * the API does, through the same functions: the API key with the `agent` role, the request
 * schemas, the one error mapping; and it hands the call to the same use case.
 */
export function registerInvokeRoute(app: NestFastifyApplication, bodyLimit: number): void {
  let deps: { keys: ApiKeyService; invoke: InvokeToolUseCase } | undefined;
  // Most calls send no query string: its checked value (defaults filled in) is the same every time.
  const noQuery = Object.freeze(checkRequestPart<InvokeQuery>(invokeQuery, {}));
  const resolve = () => (deps ??= { keys: app.get(ApiKeyService), invoke: app.get(InvokeToolUseCase) });

  /**
   * The call as server-sent events. Until the first event nothing is written, so a failure (a
   * malformed Idempotency-Key, a conflict) or a platform answer (202, 429...) before it is answered
   * as JSON with its status; after it, the only way left to answer is a last `result` event.
   */
  const stream = async (
    request: InvokeRequest,
    reply: FastifyReply,
    agent: Agent,
    command: InvokeCommand,
  ): Promise<FastifyReply> => {
    const sse = new SseStream(reply);
    let answer: InvokeAnswer;
    try {
      answer = await resolve().invoke.execute(agent, { ...command, onEvent: sse.onEvent });
    } catch (err) {
      if (!sse.started) throw err;
      const path = `${request.method} ${request.url.split('?')[0]}`;
      sse.end(undefined, answerForError(err, command.locale, { path, bodyLimit }).envelope);
      return reply;
    }
    if (!sse.started && answer.status !== 200) return sendAnswer(reply, answer);
    sse.end(answer.callId, answer.envelope);
    return reply;
  };

  const handle = async (request: InvokeRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const { keys, invoke } = resolve();
    // Without a promise when the key and the bindings are cached: the common case of a hot route.
    const authorized = keys.authorizeNow(request.headers.authorization, ['agent']);
    const principal = authorized instanceof Promise ? await authorized : authorized;
    const body = checkRequestPart<InvokeBody>(invokeBody, request.body);
    const query = isEmpty(request.query)
      ? noQuery
      : checkRequestPart<InvokeQuery>(invokeQuery, request.query);
    const key = request.headers['idempotency-key'];
    const command: InvokeCommand = {
      tenantId: principal.tenantId!,
      agentType: request.params.agentType,
      toolName: request.params.toolName,
      principal,
      body,
      locale: localeOf(request as never),
      view: query.view,
      idempotencyKey: typeof key === 'string' ? key : undefined,
      traceparent: traceparentOf(request.headers.traceparent),
    };
    // Unknown agent types and tools answer 404 here, before anything runs.
    const found = invoke.agentFor(command);
    const agent = found instanceof Promise ? await found : found;
    const call = abortableCommand(command, agent, reply);
    if (request.headers.accept?.includes('text/event-stream')) return stream(request, reply, agent, call);
    return sendAnswer(reply, await invoke.execute(agent, call));
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
      (request: InvokeRequest, reply: FastifyReply) =>
        inInboundSpan(SpanName.INVOKE, INVOKE_PATH, request, reply, () =>
          handle(request, reply).catch((err: unknown) => sendError(request, reply, err, bodyLimit)),
        ),
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
    'IDEMPOTENCY_CONFLICT',
    'PAYLOAD_TOO_LARGE',
    'RATE_LIMITED',
    'AUDIT_UNAVAILABLE',
  ]);
  delete errors['202'];
  document.paths['/v1/agents/{agentType}/tools/{toolName}/invoke'] = {
    post: {
      tags: ['agents'],
      summary:
        'Invoke a bound tool under governance; answers the envelope (SSE with Accept: text/event-stream)',
      security: [{ bearer: [] }],
      parameters: [
        { name: 'agentType', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'toolName', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'view', in: 'query', required: false, schema: { type: 'string', enum: ['full', 'model'] } },
        { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } },
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
