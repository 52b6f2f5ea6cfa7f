import type { FastifyReply } from 'fastify';
import type { ServerResponse } from 'node:http';

/**
 * Takes the response over from Fastify and starts a server-sent event stream: no caching or
 * transformation on the way, and no buffering in a proxy (nginx honours `x-accel-buffering`).
 */
export function openEventStream(reply: FastifyReply): ServerResponse {
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  return raw;
}
