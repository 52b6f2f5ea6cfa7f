import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerForError } from './error-envelope.js';
import { localeOf } from './request-locale.js';

/** Sends the envelope and status of an error (the filter's and the raw routes' one way out). */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  err: unknown,
  bodyLimit: number,
): FastifyReply {
  const answer = answerForError(err, localeOf(request as never), {
    path: `${request.method} ${request.url.split('?')[0]}`,
    bodyLimit,
  });
  if (reply.sent) return reply;
  if (answer.headers) void reply.headers(answer.headers);
  return reply.header('x-request-id', request.id).status(answer.status).send(answer.envelope);
}
