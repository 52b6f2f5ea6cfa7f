import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DynamicModule } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import { registerInvokeRoute } from './agents/invoke.route.js';
import { installRefusalRecorder, RefusalRecorder } from './http/refusal-recorder.js';
import { AppModule } from './app.module.js';
import { registerMcpRoute } from './mcp/mcp.route.js';
import { registerConsole } from './console/console-static.js';
import { clientErrorHandler, frameworkErrorHandler, refuseConnect } from './http/framework-errors.js';
import { useStrictJsonParser } from './http/json-body-parser.js';
import { methodNotAllowed } from './http/method-not-allowed.js';
import { requestIdOf } from './http/request-id.js';
import { DEFAULT_LOCALE_PROPERTY } from './http/request-locale.js';
import { useResponseHeaders } from './http/security-headers.js';
import { serveOpenApi } from './openapi/openapi-routes.js';
import type { Settings } from './settings/settings.js';
import { QuietBootLogger } from './telemetry/log-output.js';

/** Options for building a gateway in a test or a benchmark. */
export interface GatewayOptions {
  /** Extra modules, e.g. a tool pack only a test uses. */
  readonly imports?: NonNullable<DynamicModule['imports']>;
  /** Keep Nest's own logger quiet (tests). */
  readonly quiet?: boolean;
}

/**
 * Builds (but does not start) the gateway: Fastify adapter, body limit, the strict JSON parser, the
 * envelope for errors Fastify and Node raise before any handler runs, security headers on every
 * response, OpenAPI at /docs (built on first use), graceful shutdown.
 */
export async function createGateway(
  settings: Settings,
  options: GatewayOptions = {},
): Promise<NestFastifyApplication> {
  const bodyLimit = settings.server.bodyLimitBytes;
  const adapter = new FastifyAdapter({
    bodyLimit,
    trustProxy: settings.server.trustProxy,
    // The client's X-Request-Id is taken only when it is a short token (requestIdOf).
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Errors raised before Nest sees a request leave as envelopes too.
    frameworkErrors: frameworkErrorHandler(settings.locale, bodyLimit),
    clientErrorHandler: clientErrorHandler(settings.locale, bodyLimit),
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(settings, options.imports),
    adapter,
    {
      bufferLogs: true,
      // Fastify's own JSON parser is the only body parser: Nest's urlencoded parser stays off.
      bodyParser: false,
      logger: options.quiet ? false : undefined,
      abortOnError: false,
    },
  );
  if (!options.quiet) app.useLogger(new QuietBootLogger(app.get(Logger)));
  const fastify = app.getHttpAdapter().getInstance();
  fastify.decorateRequest(DEFAULT_LOCALE_PROPERTY, settings.locale);
  // Before any route is registered: it learns every route's methods as they are added.
  useResponseHeaders(fastify, methodNotAllowed(fastify, bodyLimit));
  refuseConnect(fastify.server, settings.locale, bodyLimit);
  // Only JSON bodies are accepted: anything else answers 415 instead of reaching a handler as text.
  fastify.removeContentTypeParser(['text/plain']);
  // Instead of Fastify's (and its onProtoPoisoning options): also refuses invalid UTF-8 and
  // duplicate keys, and still refuses __proto__ and constructor.prototype.
  useStrictJsonParser(fastify);
  // Refusals are recorded where errors are answered (error-reply.ts, the invoke and MCP routes).
  installRefusalRecorder(fastify, app.get(RefusalRecorder));
  registerInvokeRoute(app, bodyLimit);
  registerMcpRoute(app, bodyLimit, settings.mcp.allowedOrigins);
  await registerConsole(app, settings.server.consoleDir);
  // Built on the first request for /docs, not at every boot.
  serveOpenApi(app, { publicUrl: settings.server.publicUrl });
  app.enableShutdownHooks();
  return app;
}
