/**
 * The served OpenAPI document is one a client generator can use: every operation documents its
 * success envelope (with the `data` schema from libs/contract) and its error envelope, every `$ref`
 * resolves, and a client generated from it by openapi-typescript type-checks a call — and refuses a
 * field the server does not send. Every operation has a stable id, a summary, a description and a
 * described tag; Redocly's and Spectral's rulesets find nothing; and every path of the document
 * answers a method it does not declare with 405 and `Allow`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '@toolgate/testing';
import { redoclyProblems, spectralProblems } from '../support/openapi-linters.js';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Every operation of the document as `METHOD /path`, with the operation object. */
function operationsOf(document: Json): [string, Json][] {
  return Object.entries(document.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => [`${m.toUpperCase()} ${path}`, item[m]] as [string, Json]),
  );
}

/**
 * The operation ids: part of the contract (generated clients name their methods after them), so a
 * change here is a breaking change and needs v2 — adding an operation adds a line.
 */
const OPERATION_IDS: Record<string, string> = {
  'GET /healthz': 'getLiveness',
  'GET /readyz': 'getReadiness',
  'GET /metrics': 'getMetrics',
  'GET /v1/auth/providers': 'getSignInProviders',
  'POST /v1/auth/logout': 'logout',
  'GET /v1/me': 'getMe',
  'GET /v1/agents': 'listAgentTypes',
  'GET /v1/agents/{agentType}/tools': 'listAgentTools',
  'POST /v1/agents/{agentType}/tools/{toolName}/invoke': 'invokeTool',
  'POST /v1/agents/{agentType}/tools/{toolName}/check': 'checkToolCall',
  'POST /v1/admin/tenants/{tenantId}/agent-types/{agentType}/tools/{toolName}/check':
    'checkToolCallForTenant',
  'GET /v1/calls/{callId}': 'getCall',
  'POST /v1/agents/{agentType}/runs': 'startRun',
  'GET /v1/runs': 'listRuns',
  'GET /v1/runs/{runId}': 'getRun',
  'GET /v1/runs/{runId}/events': 'streamRunEvents',
  'POST /v1/runs/{runId}/cancel': 'cancelRun',
  'GET /v1/sessions/{sessionId}/runs': 'getSessionRuns',
  'GET /v1/approvals': 'listApprovals',
  'GET /v1/approvals/{approvalId}': 'getApproval',
  'GET /v1/approvals/{approvalId}/context': 'getApprovalContext',
  'POST /v1/approvals/{approvalId}/approve': 'approveApproval',
  'POST /v1/approvals/{approvalId}/deny': 'denyApproval',
  'GET /v1/admin/tools': 'listCatalogTools',
  'GET /v1/admin/tenants': 'listTenants',
  'POST /v1/admin/tenants': 'createTenant',
  'GET /v1/admin/tenants/{tenantId}': 'getTenant',
  'GET /v1/admin/tenants/{tenantId}/bindings': 'listBindings',
  'GET /v1/admin/tenants/{tenantId}/processing-records': 'listProcessingRecords',
  'GET /v1/admin/tenants/{tenantId}/processing-records/export': 'exportProcessingRecords',
  'PUT /v1/admin/tenants/{tenantId}/agents/{agentType}/bindings': 'replaceBindings',
  'POST /v1/admin/tenants/{tenantId}/agents/{agentType}/bindings/preview': 'previewBindings',
  'GET /v1/admin/tenants/{tenantId}/bindings/history': 'listBindingHistory',
  'GET /v1/admin/tenants/{tenantId}/export': 'exportTenant',
  'POST /v1/admin/tenants/{tenantId}/import': 'importTenant',
  'POST /v1/admin/keys': 'createKey',
  'GET /v1/admin/keys': 'listKeys',
  'DELETE /v1/admin/keys/{keyId}': 'revokeKey',
  'PATCH /v1/admin/keys/{keyId}': 'changeKeyOwner',
  'GET /v1/admin/stats': 'getStats',
  'GET /v1/admin/tenants/{tenantId}/notifications': 'getNotificationSettings',
  'GET /v1/admin/tenants/{tenantId}/notifications/deliveries': 'listNotificationDeliveries',
  'POST /v1/admin/tenants/{tenantId}/notifications/deliveries/{deliveryId}/retry':
    'retryNotificationDelivery',
  'POST /v1/admin/tenants/{tenantId}/upstreams': 'registerUpstream',
  'GET /v1/admin/tenants/{tenantId}/upstreams': 'listUpstreams',
  'GET /v1/admin/tenants/{tenantId}/upstreams/{name}': 'getUpstream',
  'PATCH /v1/admin/tenants/{tenantId}/upstreams/{name}': 'updateUpstream',
  'DELETE /v1/admin/tenants/{tenantId}/upstreams/{name}': 'deleteUpstream',
  'GET /v1/admin/tenants/{tenantId}/upstreams/{name}/tools': 'listUpstreamTools',
  'POST /v1/admin/tenants/{tenantId}/upstreams/{name}/import': 'importUpstreamTools',
  'POST /v1/admin/tenants/{tenantId}/upstreams/{name}/refresh': 'refreshUpstream',
  'GET /v1/admin/tenants/{tenantId}/upstreams/{name}/tools/{tool}/diff': 'getUpstreamToolDiff',
  'POST /v1/admin/tenants/{tenantId}/upstreams/{name}/tools/{tool}/review': 'reviewUpstreamTool',
  'GET /v1/audit/events': 'listAuditEvents',
  'GET /v1/audit/events/{id}': 'getAuditEvent',
  'GET /v1/audit/calls': 'listAuditCalls',
  'GET /v1/audit/calls/{callId}': 'getCallStory',
  'GET /v1/audit/principals': 'listAuditPrincipals',
  'GET /v1/audit/incomplete': 'listIncompleteCalls',
  'GET /v1/audit/export': 'exportAuditEvents',
  'GET /v1/audit/evidence': 'getAuditEvidence',
  'GET /v1/audit/public-keys': 'listAuditPublicKeys',
  'GET /v1/audit/sinks': 'listAuditSinks',
  'GET /v1/audit/sinks/{name}/dead-letters': 'listAuditSinkDeadLetters',
  'GET /v1/audit/retention': 'listAuditRetention',
  'PUT /v1/admin/tenants/{tenantId}/retention': 'setTenantRetention',
  'PUT /v1/admin/tenants/{tenantId}/legal-hold': 'setLegalHold',
  'DELETE /v1/admin/tenants/{tenantId}/legal-hold': 'releaseLegalHold',
  'POST /v1/admin/retention/run': 'runRetention',
  'GET /v1/audit/verify': 'verifyAuditChain',
  'POST /v1/audit/verify-jobs': 'startVerifyJob',
  'GET /v1/audit/verify-jobs/{id}': 'getVerifyJob',
  'GET /v1/audit/checkpoints': 'listCheckpoints',
  'POST /v1/audit/checkpoints': 'signCheckpoints',
};

/** The documentation's own routes: the UI and the document are not operations of the API. */
const DOCUMENTATION_ROUTES = new Set(['GET /docs', 'GET /docs-json']);

/**
 * Every route docs/CONTRACT.md names, as `METHOD /path/{param}`: each code span that starts with
 * a method (or methods joined by `|`) and a path; a query string is not part of the route.
 * Sections whose heading says "planned" describe routes not served yet.
 */
function contractRoutes(markdown: string): string[] {
  const served = markdown
    .split(/^## /m)
    .filter((section) => !/^[^\n]*planned/i.test(section))
    .join('\n');
  const routes = [
    ...served.matchAll(
      /`((?:GET|POST|PUT|PATCH|DELETE)(?:\|(?:GET|POST|PUT|PATCH|DELETE))*) (\/[^`\s?]*)[^`]*`/g,
    ),
  ];
  return routes.flatMap(([, methods, path]) =>
    methods!.split('|').map((m) => `${m} ${path!.replace(/:(\w+)/g, '{$1}')}`),
  );
}

/** Every `$ref` anywhere under `node`. */
function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, out));
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  return out;
}

/** A client program against the generated types: what must compile, and what must not. */
const CLIENT_CHECK = `
import type { paths, components } from './toolgate-api.js';

type Ok<P extends keyof paths, M extends keyof paths[P], S extends number = 200> =
  paths[P][M] extends { responses: { [K in S]: { content: { 'application/json': infer B } } } } ? B : never;

declare const me: Ok<'/v1/me', 'get'>;
// v1.9 added the separated administrators of the dengbao3 profile (ADR 039).
const role:
  | 'platform_admin' | 'tenant_admin' | 'approver' | 'auditor' | 'agent'
  | 'system_admin' | 'security_admin' | 'audit_admin' = me.data.role;
const tenant: string | null = me.data.tenantId;
// @ts-expect-error the principal has no such field
me.data.password;

declare const keys: Ok<'/v1/admin/keys', 'get'>;
const createdBy: string = keys.data[0]!.createdBy;
// @ts-expect-error a listed key never carries its secret
keys.data[0]!.key;

declare const created: Ok<'/v1/admin/keys', 'post', 201>;
const secret: string = created.data.key;

declare const stats: Ok<'/v1/admin/stats', 'get'>;
const p95: number = stats.data.buckets[0]!.p95Ms;
const errorRate: number = stats.data.buckets[0]!.errorRate;

declare const call: Ok<'/v1/calls/{callId}', 'get'>;
const updatedAt: string = call.data.updatedAt;

declare const history: Ok<'/v1/admin/tenants/{tenantId}/bindings/history', 'get'>;
const kind: 'import' | 'update' = history.data[0]!.kind;

declare const decision: Ok<'/v1/approvals/{approvalId}/approve', 'post'>;
// @ts-expect-error the call is null when there is no call record
decision.data.call.status;

declare const failure: components['schemas']['ErrorEnvelope'];
const code: string = failure.code;

export const used = [role, tenant, createdBy, secret, p95, errorRate, updatedAt, kind, code];
`;

describe('OpenAPI at /docs-json', () => {
  let gw: TestGateway;
  let document: Json;

  beforeAll(async () => {
    gw = await startTestGateway();
    const res = await gw.api('GET', '/docs-json', { key: null });
    expect(res.status).toBe(200);
    document = res.body;
  });
  afterAll(() => gw?.close());

  it('gives every operation a success schema and an error envelope', () => {
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThanOrEqual(34);
    const lacking = operations.flatMap(([name, op]) => {
      const responses = Object.entries(op.responses as Json);
      const success = responses.filter(([s, r]) => /^2\d\d$/.test(s) && r.content);
      const successSchemas = success.flatMap(([, r]) =>
        Object.values(r.content as Json).map((c) => c.schema),
      );
      const errors = responses.filter(
        ([s, r]) => /^[45]\d\d$/.test(s) && r.content?.['application/json']?.schema,
      );
      return [
        ...(success.length && successSchemas.every(Boolean) ? [] : [`${name}: no success schema`]),
        ...(errors.length ? [] : [`${name}: no error envelope`]),
      ];
    });
    expect(lacking).toEqual([]);
  });

  it('serves exactly the routes docs/CONTRACT.md lists', () => {
    const documented = new Set(contractRoutes(readFileSync('docs/CONTRACT.md', 'utf8')));
    const served = new Set(operationsOf(document).map(([name]) => name));
    expect([...documented].filter((r) => !served.has(r) && !DOCUMENTATION_ROUTES.has(r)).sort()).toEqual([]);
    expect([...served].filter((r) => !documented.has(r)).sort()).toEqual([]);
  });

  it('resolves every $ref to a schema of its components', () => {
    const known = new Set(Object.keys(document.components.schemas).map((id) => `#/components/schemas/${id}`));
    expect(refsIn(document).filter((ref) => !known.has(ref))).toEqual([]);
  });

  it('generates a typed client that accepts real fields and refuses others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-client-'));
    try {
      writeFileSync(join(dir, 'toolgate-api.ts'), astToString(await openapiTS(document as never)));
      writeFileSync(join(dir, 'client-check.ts'), CLIENT_CHECK);
      const program = ts.createProgram([join(dir, 'client-check.ts')], {
        strict: true,
        noEmit: true,
        noUncheckedIndexedAccess: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        skipLibCheck: true,
        types: [],
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives every operation its stable camelCase operationId, each used once', () => {
    const ids = operationsOf(document).map(([name, op]) => [name, op.operationId as string] as const);
    expect(ids.filter(([, id]) => !/^[a-z][a-zA-Z0-9]*$/.test(id ?? ''))).toEqual([]);
    expect(new Set(ids.map(([, id]) => id)).size).toBe(ids.length);
    expect(Object.fromEntries(ids)).toEqual(OPERATION_IDS);
  });

  it('summarizes, describes and tags every operation, with every tag described', () => {
    const tags = new Map((document.tags as Json[]).map((t) => [t.name as string, t.description as string]));
    const lacking = operationsOf(document).flatMap(([name, op]) => [
      ...(op.summary?.trim() ? [] : [`${name}: no summary`]),
      ...(op.description?.trim() ? [] : [`${name}: no description`]),
      ...((op.tags as string[] | undefined)?.length ? [] : [`${name}: no tag`]),
      ...((op.tags as string[] | undefined) ?? [])
        .filter((t) => !tags.get(t)?.trim())
        .map((t) => `${name}: tag ${t} is not described`),
    ]);
    expect(lacking).toEqual([]);
  });

  it('passes Redocly (recommended) with no error and no warning', async () => {
    expect(await redoclyProblems(document)).toEqual([]);
  });

  it('passes Spectral (spectral:oas) with no finding', async () => {
    expect(await spectralProblems(document)).toEqual([]);
  });

  it('names its server and an opaque bearer key, and states the rules the server enforces', async () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: expect.any(String) })]);
    expect(document.components.securitySchemes.bearer).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    expect(document.components.securitySchemes.bearer).not.toHaveProperty('bearerFormat');
    const body = (path: string, method: string) =>
      document.paths[path][method].requestBody.content['application/json'].schema;

    // A tenant-scoped role needs a tenantId: the document says so, and the server refuses without.
    const createKey = body('/v1/admin/keys', 'post');
    expect(createKey.anyOf).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          properties: { role: { enum: ['tenant_admin', 'approver', 'agent'] } },
          required: ['tenantId'],
        }),
      ]),
    );
    const keyless = await gw.api('POST', '/v1/admin/keys', { body: { name: 'no tenant', role: 'agent' } });
    expect([keyless.status, keyless.body.code]).toEqual([400, 'INVALID_INPUT']);

    // An upstream's secret is named by a variable of the upstream family.
    const secretEnv = body('/v1/admin/tenants/{tenantId}/upstreams', 'post').properties.auth.properties
      .secretEnv;
    expect(new RegExp(secretEnv.pattern).test('TOOLGATE_UPSTREAM_CRM_TOKEN')).toBe(true);
    expect(new RegExp(secretEnv.pattern).test('DATABASE_URL')).toBe(false);

    // The delivery statuses a filter may name.
    const status = (
      document.paths['/v1/admin/tenants/{tenantId}/notifications/deliveries'].get.parameters as Json[]
    ).find((p) => p.name === 'status')!;
    const statuses = new RegExp(status.schema.pattern);
    expect(['dead', 'pending,sending,delivered,dead,skipped'].map((v) => statuses.test(v))).toEqual([
      true,
      true,
    ]);
    expect(['bogus', 'dead,', 'dead,bogus'].map((v) => statuses.test(v))).toEqual([false, false, false]);
    const deliveries = '/v1/admin/tenants/acme/notifications/deliveries';
    expect((await gw.api('GET', `${deliveries}?status=dead,pending`)).status).toBe(200);
    expect((await gw.api('GET', `${deliveries}?status=dead,bogus`)).status).toBe(400);
  });

  it('answers every path of the document 405 with Allow for a method the path does not declare', async () => {
    const wrong = await Promise.all(
      Object.entries(document.paths as Json).map(async ([path, item]) => {
        const declared = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
        const allowed = declared.includes('GET') ? [...declared, 'HEAD'] : declared;
        const method = ['PATCH', 'PUT', 'DELETE', 'POST', 'GET'].find((m) => !declared.includes(m))!;
        const url = path.replace(/\{\w+\}/g, 'acme');
        const res = await gw.api(method, url, { body: method === 'GET' ? undefined : {} });
        const allow = (res.headers.get('allow') ?? '').split(/,\s*/).filter(Boolean).sort();
        const ok =
          res.status === 405 && res.body.code === 'INVALID_INPUT' && allow.join() === allowed.sort().join();
        return ok ? [] : [`${method} ${path}: ${res.status} ${res.body.code} Allow: ${allow.join(', ')}`];
      }),
    );
    expect(wrong.flat()).toEqual([]);
    // A path no route has stays 404, whatever the method; the MCP endpoint allows POST only.
    const unknown = await gw.api('PATCH', '/v1/no-such-thing');
    expect([unknown.status, unknown.body.code, unknown.headers.get('allow')]).toEqual([
      404,
      'NOT_FOUND',
      null,
    ]);
    const mcp = await gw.api('PUT', '/mcp/ops_assistant', { body: {} });
    expect([mcp.status, mcp.headers.get('allow')]).toEqual([405, 'POST']);
  });
});
