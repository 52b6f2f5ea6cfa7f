import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';

/** Hashed build assets never change under their name: cache them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The console's Content-Security-Policy: its own scripts only (no inline script, no eval), styles
 * inline too because Ant Design's CSS-in-JS writes <style> elements at run time, images from
 * itself or data: URLs, API calls to its own origin, never framed, no <base> and no plugins.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

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
      .header('content-security-policy', CONSOLE_CSP)
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
        // index.html is reachable under its own name too.
        if (path.endsWith('.html')) void res.header('content-security-policy', CONSOLE_CSP);
      },
    });
  }
  // Client-side routes (/console/audit, /console/bindings/...) all answer the app.
  fastify.get('/console/', (_req, reply) => sendIndex(reply));
  fastify.get('/console/*', (_req, reply) => sendIndex(reply));
}
