import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { stringify } from 'yaml';
import { buildOpenApiDocument, type OpenApiServer } from './openapi-document.js';

/**
 * Swagger UI at /docs, the document at /docs-json and /docs-yaml. The document and each text are
 * built on their first request and kept: Swagger's own routes serialize on every request, and YAML of
 * a document this size is 20–60 ms of synchronous work, which stalls every other request (the
 * fuzz suite saw /healthz wait behind it).
 */
export function serveOpenApi(app: NestFastifyApplication, server: OpenApiServer = {}): void {
  let document: OpenAPIObject | undefined;
  let json: string | undefined;
  let yaml: string | undefined;
  const built = () => (document ??= buildOpenApiDocument(app, server));
  SwaggerModule.setup('docs', app, built, { raw: false });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.get('/docs-json', (_req, reply) =>
    reply.type('application/json; charset=utf-8').send((json ??= JSON.stringify(built()))),
  );
  fastify.get('/docs-yaml', (_req, reply) =>
    reply
      .type('text/yaml; charset=utf-8')
      .send((yaml ??= stringify(built(), { aliasDuplicateObjects: false }))),
  );
}
