import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { contractComponentSchemas } from '@toolgate/contract';
import { documentInvokeRoute } from '../agents/invoke.route.js';

type Node = Record<string, unknown>;

/**
 * Response schemas are descriptions of what the server sends, not validators: additions are
 * welcome (docs/CONTRACT.md), so objects stay open to new fields; an ISO-8601 instant keeps its
 * `format` without Zod's long pattern, an integer its type without the safe-integer bounds.
 */
function forResponses(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forResponses);
  if (!node || typeof node !== 'object') return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node as Node)) {
    if (key === 'additionalProperties' && value === false) continue;
    if (key === 'pattern' && (node as Node).format === 'date-time') continue;
    // Zod bounds every integer by the safe range; that says nothing a client needs.
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER)
      continue;
    out[key] = forResponses(value);
  }
  return out;
}

/**
 * The OpenAPI document at /docs-json: the controllers as Nest sees them, the invoke route (not a
 * controller), and the contract's schemas under `components.schemas`, which every response `$ref`s.
 */
export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Toolgate')
      .setDescription(
        'Governed tool calls: definitions, tenant bindings, approval and a tamper-evident audit trail. Every JSON body is an envelope.',
      )
      .setVersion('1')
      .addBearerAuth()
      .build(),
  );
  documentInvokeRoute(document);
  document.components ??= {};
  document.components.schemas = {
    ...document.components.schemas,
    ...(forResponses(contractComponentSchemas()) as Record<string, Node>),
  };
  return document;
}
