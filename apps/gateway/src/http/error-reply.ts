import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerForError } from './error-envelope.js';
import { noteRefusal } from './refusal-recorder.js';
import { localeOf } from './request-locale.js';

/** Sends the envelope and status of an error (the filter's and the raw routes' one way out). */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  err: unknown,
  bodyLimit: number,
): FastifyReply {
  // A client that went away gets nothing, and its leaving is not a server error to log.
  if (reply.sent || reply.raw.destroyed) return reply;
  const answer = answerForError(err, localeOf(request as never), {
    path: `${request.method} ${request.url.split('?')[0]}`,
    bodyLimit,
  });
  if (reply.sent) return reply;
  noteRefusal(request, answer, err);
  if (answer.headers) void reply.headers(answer.headers);
  return (
    reply
      .header('x-request-id', request.id)
      // A handler may have set another type for its success (`@Header('content-type', ...)`);
      // an envelope under it would be refused by Fastify's serializer and become a 500.
      .type('application/json; charset=utf-8')
      .status(answer.status)
      .send(answer.envelope)
  );
}
