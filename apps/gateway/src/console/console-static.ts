import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';

/** Hashed build assets never change under their name: cache them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the admin console's production build at `/console`: hashed assets with long-lived cache
 * headers, precompressed `.br`/`.gz` siblings when the client accepts them, and `index.html`
 * (never cached) for every client-side route. Without a build, `/console` says how to make one.
 */
export async function registerConsole(app: NestFastifyApplication, distDir: string): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  const root = resolve(distDir);
  const indexFile = join(root, 'index.html');
  const built = existsSync(indexFile);
  const sendIndex = (reply: FastifyReply) => {
    if (!built) {
      return reply.status(404).send({
        error: 'The console is not built',
        code: 'NOT_FOUND',
        suggestedAction: 'Run npm run build (or npm run build:console) and restart the gateway',
      });
    }
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(readFileSync(indexFile));
  };
  fastify.get('/console', (_req, reply) => reply.redirect('/console/', 302));
  if (built) {
    await fastify.register(fastifyStatic, {
      root,
      prefix: '/console/',
      decorateReply: false,
      wildcard: false,
      preCompressed: true,
      index: false,
      setHeaders: (res, path) => {
        void res.header('cache-control', path.includes(join(root, 'assets')) ? IMMUTABLE : 'no-cache');
      },
    });
  }
  // Client-side routes (/console/audit, /console/bindings/...) all answer the app.
  fastify.get('/console/', (_req, reply) => sendIndex(reply));
  fastify.get('/console/*', (_req, reply) => sendIndex(reply));
}
