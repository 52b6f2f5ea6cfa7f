import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { MethodNotAllowedException } from '@nestjs/common';
import type { Locale } from '@toolgate/toolkit';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { answerForError, type ErrorAnswer } from './error-envelope.js';
import { sendError } from './error-reply.js';
import { DEFAULT_LOCALE_PROPERTY } from './request-locale.js';
import { SECURITY_HEADERS, setSecurityHeaders } from './security-headers.js';

/** Where an answer written before any request exists is reported from (logs only). */
const UNPARSED = '(unparsed request)';

/**
 * Fastify's `frameworkErrors`: the router refuses a malformed URL (400) or an over-long path
 * parameter (414) before any hook runs, so the security headers are set here too.
 */
export function frameworkErrorHandler(locale: Locale, bodyLimit: number) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    // The router builds this request from Fastify's base class, without the gateway's decorations.
    (request as unknown as Record<string, unknown>)[DEFAULT_LOCALE_PROPERTY] ??= locale;
    setSecurityHeaders(reply.raw);
    sendError(request, reply, err, bodyLimit);
  };
}

/** The status of a request Node's HTTP parser refused (its own defaults, as Fastify's). */
function statusOfParserError(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/**
 * A whole HTTP/1.1 response for a socket no Fastify reply exists for; the connection then closes.
 * The answer to a HEAD request is its head only: a client reads no body after it, and would take
 * the envelope for a malformed next response.
 */
function rawAnswer(answer: ErrorAnswer, headOnly = false): string {
  const body = JSON.stringify(answer.envelope);
  const head = [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    // No request was parsed, so no client id was taken: a fresh one still names the answer.
    `x-request-id: ${randomUUID()}`,
    ...SECURITY_HEADERS.map(([name, value]) => `${name}: ${value}`),
  ];
  return `${head.join('\r\n')}\r\n\r\n${headOnly ? '' : body}`;
}

/**
 * A response of this connection is already on the wire (a streamed export, server-sent events, or a
 * handler that answered before the body it did not read turned out broken). Node's own rule, with
 * its own field: an answer written now would land inside that response and corrupt the client's
 * reading of it.
 */
function responseInFlight(socket: Duplex): boolean {
  return (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
}

function answerOnSocket(socket: Duplex, answer: ErrorAnswer, headOnly = false): void {
  if (socket.destroyed) return;
  if (!socket.writable || responseInFlight(socket)) {
    socket.destroy();
    return;
  }
  // Destroyed once written: the parser is in an error state and the request cannot go on.
  socket.end(rawAnswer(answer, headOnly), () => socket.destroy());
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses (conflicting or broken
 * framing such as Content-Length with Transfer-Encoding, a bad chunk size, an unknown method,
 * oversized headers, a body cut short) are answered with the envelope, not Fastify's own JSON.
 */
export function clientErrorHandler(locale: Locale, bodyLimit: number) {
  return (err: Error & { code?: string; rawPacket?: unknown }, socket: Duplex): void => {
    const refused = err.code?.startsWith('HPE_') || err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    // Anything else is the network failing (reset, broken pipe): there is nobody to answer.
    if (!refused) {
      socket.destroy();
      return;
    }
    const status = statusOfParserError(err.code);
    // Node hands over the chunk it was parsing: when the request began in it, the method is known
    // even though the URL is not. (A request split over several chunks cannot be told: it gets the
    // body, as before.)
    const head =
      Buffer.isBuffer(err.rawPacket) && err.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
    answerOnSocket(
      socket,
      answerForError({ code: err.code, statusCode: status }, locale, { path: UNPARSED, bodyLimit }),
      head,
    );
  };
}

/**
 * Answers `CONNECT` with 405: Node hands it to a `connect` listener instead of the router, and
 * without one it drops the connection without an answer. The gateway is not a proxy.
 */
export function refuseConnect(server: Server, locale: Locale, bodyLimit: number): void {
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    const answer = answerForError(new MethodNotAllowedException('CONNECT is not supported'), locale, {
      path: `CONNECT ${request.url}`,
      bodyLimit,
    });
    answerOnSocket(socket, answer);
  });
}
