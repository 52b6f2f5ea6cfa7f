import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './error-reply.js';

/** The one exception filter: every error leaves as an envelope with CONTRACT.md's status. */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  constructor(private readonly bodyLimit: number) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), exception, this.bodyLimit);
  }
}
