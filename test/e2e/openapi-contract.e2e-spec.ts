/**
 * The served OpenAPI document is one a client generator can use: every operation documents its
 * success envelope (with the `data` schema from libs/contract) and its error envelope, every `$ref`
 * resolves, and a client generated from it by openapi-typescript type-checks a call — and refuses a
 * field the server does not send.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '@toolgate/testing';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Every operation of the document as `METHOD /path`, with the operation object. */
function operationsOf(document: Json): [string, Json][] {
  return Object.entries(document.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => [`${m.toUpperCase()} ${path}`, item[m]] as [string, Json]),
  );
}

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
const role: 'platform_admin' | 'tenant_admin' | 'approver' | 'auditor' | 'agent' = me.data.role;
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
});
