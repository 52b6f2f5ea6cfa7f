import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerForError } from './error-envelope.js';
import { localeOf } from './request-locale.js';

/** The one exception filter: every error leaves as an envelope with CONTRACT.md's status. */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  constructor(private readonly bodyLimit: number) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const answer = answerForError(exception, localeOf(request as never), {
      path: `${request.method} ${request.url.split('?')[0]}`,
      bodyLimit: this.bodyLimit,
    });
    if (reply.sent) return;
    if (answer.headers) reply.headers(answer.headers);
    reply.header('x-request-id', request.id).status(answer.status).send(answer.envelope);
  }
}
