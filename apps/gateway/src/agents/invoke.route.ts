import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiKeyService } from '@toolgate/auth';
import type { OpenAPIObject } from '@nestjs/swagger';
import { toJsonSchema } from '@toolgate/toolkit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../http/error-reply.js';
import { localeOf } from '../http/request-locale.js';
import { checkRequestPart } from '../http/request-schemas.js';
import { invokeBody, invokeQuery, type InvokeBody, type InvokeQuery } from './agents.dto.js';
import { InvokeToolUseCase, type InvokeCommand } from './invoke-tool.usecase.js';
import { SseStream } from './sse-stream.js';

export const INVOKE_PATH = '/v1/agents/:agentType/tools/:toolName/invoke';

type InvokeRequest = FastifyRequest<{ Params: { agentType: string; toolName: string } }>;

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
  const resolve = () => (deps ??= { keys: app.get(ApiKeyService), invoke: app.get(InvokeToolUseCase) });

  const handle = async (request: InvokeRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const { keys, invoke } = resolve();
    const principal = await keys.authorize(request.headers.authorization, ['agent']);
    const body = checkRequestPart<InvokeBody>(invokeBody, request.body);
    const query = checkRequestPart<InvokeQuery>(invokeQuery, request.query);
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
    };
    // Unknown agent types and tools answer 404 as JSON, before an SSE stream opens.
    const agent = await invoke.agentFor(command);
    if (request.headers.accept?.includes('text/event-stream')) {
      const stream = new SseStream(reply);
      const answer = await invoke.execute(agent, { ...command, onEvent: stream.onEvent });
      stream.end(answer.callId, answer.envelope);
      return reply;
    }
    const answer = await invoke.execute(agent, command);
    return reply
      .status(answer.status)
      .headers(answer.headers)
      .header('x-call-id', answer.callId)
      .send(answer.envelope);
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
        handle(request, reply).catch((err: unknown) => sendError(request, reply, err, bodyLimit)),
    );
}

/** The OpenAPI description of the invoke route, which Swagger cannot see (it is not a controller). */
export function documentInvokeRoute(document: OpenAPIObject): void {
  const envelope = {
    type: 'object',
    description: '{ data, status: "ok" } or { error, code, suggestedAction, details?, callId?, approvalId? }',
  };
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
            'The tool outcome: success, or a tool failure (INVALID_INPUT, TIMEOUT, UPSTREAM_ERROR, ...) — 200 on purpose, so clients do not retry side effects',
          content: { 'application/json': { schema: envelope } },
        },
        '202': {
          description: 'APPROVAL_PENDING: parked until an approver decides',
          content: { 'application/json': { schema: envelope } },
        },
        '401': { description: 'UNAUTHENTICATED' },
        '403': { description: 'FORBIDDEN' },
        '404': { description: 'TOOL_NOT_FOUND / NOT_FOUND' },
        '409': { description: 'IDEMPOTENCY_CONFLICT' },
        '413': { description: 'PAYLOAD_TOO_LARGE' },
        '429': { description: 'RATE_LIMITED' },
        '503': { description: 'AUDIT_UNAVAILABLE: the call could not be audited, so it did not run' },
      },
    },
  } as OpenAPIObject['paths'][string];
}
