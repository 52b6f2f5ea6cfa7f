import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { SESSION_COOKIE } from '@toolgate/auth';
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
 * The document's tags, each described: one per audience of the API (the controllers' `@ApiTags`).
 * Generators group a client's methods by tag, so a tag is part of the contract like an operation id.
 */
const TAGS: readonly (readonly [name: string, description: string])[] = [
  [
    'agents',
    'What agents call: their agent types and bound tools, the governed invoke, and the state of a call.',
  ],
  [
    'runs',
    'Agent runs: one question to an agent type, its steps and tool calls, its events; sessions continue a conversation.',
  ],
  ['approvals', 'The approvers’ inbox: calls parked until a person approves or denies them.'],
  [
    'admin',
    'Administration: the tool catalog, tenants and their bindings, API keys, statistics and approval notifications.',
  ],
  [
    'upstreams',
    'Outside tool sources (MCP servers, OpenAPI services) imported into a tenant, pinned and reviewed.',
  ],
  [
    'audit',
    'The tamper-evident audit trail: events, call stories, exports, verification and signed checkpoints.',
  ],
  ['auth', 'Who is calling (the key or the signed-in person) and how people sign in to the console.'],
  ['ops', 'Liveness, readiness and Prometheus metrics; no key needed.'],
];

/** Where the document's operations are served. */
export interface OpenApiServer {
  /** The address people use (`TOOLGATE_PUBLIC_URL`), when it is set. */
  readonly publicUrl?: string;
}

/**
 * The document's one server: the public address when it is set (without a trailing slash: paths
 * start with one); otherwise `/`, paths relative to wherever the document was read from, which is
 * right behind any proxy.
 */
export function serverOf({ publicUrl }: OpenApiServer): { url: string; description: string } {
  if (!publicUrl) return { url: '/', description: 'This gateway (paths relative to the document’s address)' };
  const url = publicUrl.endsWith('/') ? publicUrl.slice(0, -1) : publicUrl;
  return { url, description: 'The gateway’s public address (TOOLGATE_PUBLIC_URL)' };
}

/**
 * The OpenAPI document at /docs-json: the controllers as Nest sees them (each operation with its own
 * `operationId`, a contract name), the invoke route (not a controller), and the contract's schemas
 * under `components.schemas`, which every response `$ref`s. Redocly's and Spectral's rulesets find
 * nothing in it (test/e2e/openapi-contract.e2e-spec.ts).
 */
export function buildOpenApiDocument(app: NestFastifyApplication, server: OpenApiServer = {}): OpenAPIObject {
  const { url, description } = serverOf(server);
  const builder = new DocumentBuilder()
    .setTitle('Toolgate')
    .setDescription(
      'Governed tool calls: definitions, tenant bindings, approval and a tamper-evident audit trail. Every JSON body is an envelope.',
    )
    .setVersion('1')
    .addServer(url, description)
    // Keys are opaque random secrets, not JWTs: no bearerFormat.
    .addSecurity('bearer', {
      type: 'http',
      scheme: 'bearer',
      description:
        'An API key (`Authorization: Bearer <key>`). The console’s signed-in people use a session cookie with X-CSRF-Token instead.',
    })
    .addSecurity('session', {
      type: 'apiKey',
      in: 'cookie',
      name: SESSION_COOKIE,
      description:
        'The console’s session cookie of a person signed in through OIDC (`__Host-` prefixed over https); every POST, PUT, PATCH or DELETE with it also sends `X-CSRF-Token` (from GET /v1/me).',
    });
  for (const [name, description] of TAGS) builder.addTag(name, description);
  const config = builder.build();
  // Toolgate is not licensed for use outside its deployment (package.json: UNLICENSED); the only
  // terms the gateway serves are its documentation, so the license points there.
  config.info.license = { name: 'Proprietary', url: '/docs' };
  const document = SwaggerModule.createDocument(app, config);
  documentInvokeRoute(document);
  document.components ??= {};
  document.components.schemas = {
    ...document.components.schemas,
    ...(forResponses(contractComponentSchemas()) as Record<string, Node>),
  };
  return document;
}
