import { z } from 'zod';
import { AGENT_TYPE, instant, REGION, riskLevelSchema } from './common.schema.js';
import { named } from './registry.js';

const snake = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** Registering an outside tool source of a tenant. */
export const registerUpstreamBody = z.strictObject({
  name: z.string().max(32).regex(snake, 'use snake_case (it prefixes the tools: <name>__<tool>)'),
  kind: z.enum(['mcp', 'openapi']).default('mcp'),
  url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .describe(
      "kind mcp: the server's Streamable HTTP endpoint; kind openapi: the OpenAPI 3.0/3.1 document (JSON or YAML)",
    ),
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional()
    .describe(
      "kind openapi only: where calls go. Default: the document's servers[0].url, which must then be on the document's own origin",
    ),
  auth: z
    .strictObject({
      header: z
        .string()
        .regex(/^[A-Za-z0-9-]{1,100}$/, 'an HTTP header name')
        .describe('e.g. "authorization"'),
      // The rule the upstreams lib checks (UPSTREAM_SECRET_ENV_PATTERN), stated for clients; the lib
      // answers a name outside it with a message that names the prefix.
      secretEnv: z
        .string()
        .meta({ pattern: '^TOOLGATE_UPSTREAM_[A-Z0-9_]{1,100}$' })
        .describe(
          "The NAME of a gateway environment variable holding the value, one of the tenant's: TOOLGATE_UPSTREAM_<TENANT>__<NAME> (tenant id upper-cased, - as _)",
        ),
    })
    .optional(),
  timeoutMs: z.number().int().min(1).max(30_000).optional(),
  region: REGION.optional().describe(
    'Where the source processes what it is sent (ISO 3166-1 alpha-2; CN is mainland China, HK, MO and TW are not). Not declared: outside mainland China for the cross-border guard (ADR 047)',
  ),
});
export type RegisterUpstreamBody = z.infer<typeof registerUpstreamBody>;

/** Changing a registered upstream: where it processes what it is sent (ADR 047). */
export const updateUpstreamBody = z.strictObject({
  region: REGION.nullable().describe(
    'ISO 3166-1 alpha-2 (CN is mainland China); null: not declared, outside mainland China for the cross-border guard',
  ),
});
export type UpdateUpstreamBody = z.infer<typeof updateUpstreamBody>;

export const upstreamViewSchema = named(
  'Upstream',
  z.object({
    name: z.string(),
    kind: z.enum(['mcp', 'openapi']),
    url: z.string(),
    baseUrl: z.string().nullable(),
    auth: z.object({ header: z.string(), secretEnv: z.string() }).nullable(),
    timeoutMs: z.number().int(),
    region: z.string().nullable().describe('ISO 3166-1 alpha-2 as declared; null: not declared'),
    tools: z.object({ active: z.number().int(), quarantined: z.number().int(), removed: z.number().int() }),
    createdAt: instant(),
    updatedAt: instant(),
  }),
);
export type UpstreamView = z.infer<typeof upstreamViewSchema>;

/** How a call of an OpenAPI operation becomes a request: pinned with its definition (ADR 016). */
export const upstreamCallPlanSchema = named(
  'UpstreamCallPlan',
  z.object({
    method: z.string().describe('GET, PUT, POST, DELETE, PATCH or HEAD'),
    baseUrl: z.string().describe('Origin and base path calls go to (without query)'),
    path: z.string().describe('The path template, e.g. /customers/{id}'),
    parameters: z.array(
      z.object({
        name: z.string(),
        in: z.enum(['path', 'query', 'header']),
        argName: z.string().describe('The input property holding its value'),
        required: z.boolean(),
        style: z.string(),
        explode: z.boolean(),
        json: z.boolean().describe('Sent as JSON text'),
      }),
    ),
    body: z.object({ argName: z.string(), required: z.boolean(), contentType: z.string() }).nullable(),
  }),
);

/** A tool as the upstream describes it (what the fingerprint covers). */
export const upstreamToolDefinitionSchema = named(
  'UpstreamToolDefinition',
  z.object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string(),
    inputSchema: z.record(z.string(), z.unknown()),
    outputSchema: z.record(z.string(), z.unknown()).optional(),
    annotations: z.record(z.string(), z.unknown()).optional(),
    callPlan: upstreamCallPlanSchema
      .optional()
      .describe('OpenAPI operations: how a call becomes a request (absent for MCP tools)'),
  }),
);

/** One tool of the live list: imported or not, and under which name. */
export const upstreamLiveToolSchema = named(
  'UpstreamLiveTool',
  z.object({
    definition: upstreamToolDefinitionSchema,
    fingerprint: z.string(),
    imported: z.boolean(),
    toolgateName: z.string().nullable(),
    status: z.enum(['active', 'quarantined', 'removed']).nullable(),
  }),
);

export const importedToolSchema = named(
  'ImportedUpstreamTool',
  z.object({
    toolgateName: z.string(),
    upstreamName: z.string(),
    riskLevel: riskLevelSchema,
    dataDomains: z.array(z.string()),
    timeoutMs: z.number().int().nullable(),
    status: z.enum(['active', 'quarantined', 'removed']),
    fingerprint: z.string(),
    pendingFingerprint: z.string().nullable(),
    reviewedBy: z.string().nullable(),
    reviewedAt: instant().nullable(),
  }),
);
export type ImportedToolView = z.infer<typeof importedToolSchema>;

export const registerUpstreamResultSchema = named(
  'RegisteredUpstream',
  z.object({ upstream: upstreamViewSchema, tools: z.array(upstreamLiveToolSchema) }),
);

export const upstreamDetailSchema = named(
  'UpstreamDetail',
  z.object({ upstream: upstreamViewSchema, imported: z.array(importedToolSchema) }),
);

/** Importing chosen tools; the risk level has no default: the admin must choose. */
export const importUpstreamToolsBody = z.strictObject({
  tools: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(128),
        riskLevel: riskLevelSchema,
        dataDomains: z.array(z.string().min(1).max(100)).max(20).optional(),
        timeoutMs: z.number().int().min(1).max(30_000).optional(),
        toolgateName: z.string().max(64).optional().describe('Default: <server>__<tool>'),
      }),
    )
    .min(1)
    .max(100),
  bindTo: z.array(AGENT_TYPE).max(50).optional(),
});
export type ImportUpstreamToolsBody = z.infer<typeof importUpstreamToolsBody>;

export const importUpstreamResultSchema = named(
  'UpstreamImportResult',
  z.object({
    imported: z.array(importedToolSchema),
    boundTo: z.array(z.object({ agentType: z.string(), version: z.number().int() })),
  }),
);

export const refreshUpstreamResultSchema = named(
  'UpstreamRefreshResult',
  z.object({
    unchanged: z.array(z.string()),
    quarantined: z.array(z.string()),
    removed: z.array(z.string()),
    restored: z.array(z.string()),
  }),
);
export type RefreshUpstreamResult = z.infer<typeof refreshUpstreamResultSchema>;

export const upstreamToolDiffSchema = named(
  'UpstreamToolDiff',
  z.object({
    toolgateName: z.string(),
    status: z.enum(['active', 'quarantined', 'removed']),
    pinned: z.object({ fingerprint: z.string(), definition: upstreamToolDefinitionSchema }),
    pending: z.object({ fingerprint: z.string(), definition: upstreamToolDefinitionSchema }).nullable(),
    changedFields: z.array(z.string()),
  }),
);

export const reviewUpstreamToolBody = z.strictObject({
  decision: z.enum(['accept', 'keep_blocked']),
  fingerprint: z
    .string()
    .optional()
    .describe('The pending fingerprint the reviewer saw; 409 VERSION_CONFLICT when it changed since'),
});
export type ReviewUpstreamToolBody = z.infer<typeof reviewUpstreamToolBody>;

export const deletedUpstreamSchema = named(
  'DeletedUpstream',
  z.object({ name: z.string(), deleted: z.literal(true) }),
);
