import { compileSchema } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from './openapi-document.js';
import { mapOperations } from './openapi-operations.js';
import { buildRequest } from './openapi-request.js';
import { MAX_TOOL_NAME_LENGTH, snakeName, TOOL_NAME_FORMAT, UniqueNames } from './tool-names.js';

const doc = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}): OpenApiDocument => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths,
  ...extra,
});

const ok = { 200: { description: 'ok' } };

describe('tool names', () => {
  it('snake-cases operation ids and method+path fallbacks into the tool-name format', () => {
    expect(snakeName('getCustomerByID')).toBe('get_customer_by_id');
    expect(snakeName('HTTPServerStatus')).toBe('http_server_status');
    expect(snakeName('orders.list--all')).toBe('orders_list_all');
    expect(snakeName('get /v2/orders/{id}/items')).toBe('get_v2_orders_id_items');
    expect(snakeName('2fa-enable')).toBe('op_2fa_enable');
    expect(snakeName('ЗАКАЗ')).toBe('operation');
    const long = snakeName('a'.repeat(40) + '_' + 'b'.repeat(40));
    expect(long.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
    expect(long).toMatch(TOOL_NAME_FORMAT);
  });

  it('suffixes repeats and keeps them within the length limit', () => {
    const names = new UniqueNames();
    const base = 'x'.repeat(64);
    expect(names.claim('list')).toBe('list');
    expect(names.claim('list')).toBe('list_2');
    expect(names.claim(base)).toBe(base);
    const second = names.claim(base);
    expect(second).toBe(`${'x'.repeat(62)}_2`);
    expect(second).toMatch(TOOL_NAME_FORMAT);
  });
});

describe('mapping operations', () => {
  it('gives an input its location as a prefix when two locations share a name, and the body its own name', () => {
    const { operations } = mapOperations(
      doc({
        '/items/{id}': {
          put: {
            operationId: 'replaceItem',
            parameters: [
              { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'id', in: 'query', schema: { type: 'string' } },
              { name: 'body', in: 'query', schema: { type: 'string' } },
              { name: 'session', in: 'cookie', schema: { type: 'string' } },
            ],
            requestBody: { content: { 'application/merge-patch+json': { schema: { type: 'object' } } } },
            responses: ok,
          },
        },
      }),
    );
    const [operation] = operations;
    expect(Object.keys(operation!.definition.inputSchema.properties as object)).toEqual([
      'id',
      'query_id',
      'body',
      'request_body',
    ]);
    expect(operation!.definition.inputSchema.required).toEqual(['id']);
    expect(operation!.plan.body).toEqual({
      argName: 'request_body',
      required: false,
      contentType: 'application/merge-patch+json',
    });
  });

  it('converts OpenAPI 3.0 keywords to JSON Schema 2020-12 and drops vendor extensions', () => {
    const { operations } = mapOperations(
      doc({
        '/n': {
          get: {
            parameters: [
              {
                name: 'n',
                in: 'query',
                required: true,
                description: 'How many',
                schema: {
                  type: 'number',
                  minimum: 0,
                  exclusiveMinimum: true,
                  maximum: 10,
                  example: 3,
                  'x-internal': 1,
                },
              },
              { name: 'mode', in: 'query', schema: { type: 'string', enum: ['a', 'b'], nullable: true } },
              {
                name: 'meta',
                in: 'query',
                schema: {
                  type: 'object',
                  properties: { 'x-id': { type: 'string' }, example: { type: 'integer' } },
                },
              },
            ],
            responses: ok,
          },
        },
      }),
    );
    expect(operations[0]!.definition.inputSchema.properties).toEqual({
      n: { type: 'number', exclusiveMinimum: 0, maximum: 10, examples: [3], description: 'How many' },
      mode: { type: ['string', 'null'], enum: ['a', 'b', null] },
      meta: { type: 'object', properties: { 'x-id': { type: 'string' }, example: { type: 'integer' } } },
    });
  });

  it('produces schemas the platform validator compiles and enforces (unknown inputs refused)', () => {
    const { operations } = mapOperations(
      doc(
        {
          '/orders': {
            post: {
              operationId: 'createOrder',
              requestBody: {
                required: true,
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } },
              },
              responses: ok,
            },
          },
        },
        {
          components: {
            schemas: {
              Order: {
                type: 'object',
                required: ['qty'],
                properties: {
                  qty: { type: 'integer', minimum: 1 },
                  parent: { $ref: '#/components/schemas/Order' },
                },
              },
            },
          },
        },
      ),
    );
    const schema = compileSchema(operations[0]!.definition.inputSchema, 'input');
    expect(schema.check({ body: { qty: 2, parent: { anything: true } } }).ok).toBe(true);
    expect(schema.check({ body: { qty: 0 } }).ok).toBe(false);
    expect(schema.check({ body: { qty: 1 }, Authorization: 'Bearer x' }).ok).toBe(false);
    expect(schema.check({}).ok).toBe(false);
  });

  it('skips an operation whose required body has no JSON form, and says why', () => {
    const result = mapOperations(
      doc({
        '/files': {
          post: {
            requestBody: {
              required: true,
              content: { 'multipart/form-data': { schema: { type: 'object' } } },
            },
            responses: ok,
          },
          get: { responses: ok },
        },
      }),
    );
    expect(result.operations.map((o) => o.definition.name)).toEqual(['get_files']);
    expect(result.skipped).toEqual([
      { method: 'POST', path: '/files', reason: 'its required request body has no JSON media type' },
    ]);
  });
});

describe('building requests', () => {
  const planOf = (parameters: unknown[], path = '/search') =>
    mapOperations(doc({ [path]: { get: { operationId: 'search', parameters, responses: ok } } }))
      .operations[0]!.plan;

  it('serializes deepObject, non-exploded form and pipe-delimited query values', () => {
    const plan = planOf([
      { name: 'filter', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object' } },
      { name: 'ids', in: 'query', explode: false, schema: { type: 'array' } },
      { name: 'tags', in: 'query', style: 'pipeDelimited', schema: { type: 'array' } },
    ]);
    const built = buildRequest(
      plan,
      { filter: { name: 'ada', age: 3 }, ids: [1, 2], tags: ['a', 'b'] },
      new URL('http://svc.test/v1/'),
      {},
    );
    expect(built.ok && built.url.href).toBe(
      'http://svc.test/v1/search?filter%5Bname%5D=ada&filter%5Bage%5D=3&ids=1%2C2&tags=a%7Cb',
    );
  });

  it("keeps the base URL's query and refuses an argument that would add to one of its names", () => {
    const plan = planOf([
      { name: 'q', in: 'query', schema: { type: 'string' } },
      { name: 'extra', in: 'query', schema: { type: 'object' } },
    ]);
    const base = new URL('http://svc.test/v1?api_key=secret');
    const built = buildRequest(plan, { q: 'x' }, base, {});
    expect(built.ok && built.url.href).toBe('http://svc.test/v1/search?api_key=secret&q=x');
    expect(buildRequest(plan, { extra: { api_key: 'mine' } }, base, {})).toMatchObject({
      ok: false,
      argName: 'extra',
    });
  });

  it('lets configured headers win over a header parameter of the same name, and refuses unsendable values', () => {
    const plan = planOf([{ name: 'X-Api-Key', in: 'header', schema: { type: 'string' } }]);
    const base = new URL('http://svc.test/');
    const built = buildRequest(plan, { 'X-Api-Key': 'from-the-model' }, base, { 'x-api-key': 'configured' });
    expect(built.ok && built.init.headers.get('x-api-key')).toBe('configured');
    expect(buildRequest(plan, { 'X-Api-Key': 'caf\u00e9 \u20ac' }, base, {})).toMatchObject({
      ok: false,
      argName: 'X-Api-Key',
    });
  });

  it('ignores inherited properties of the arguments', () => {
    const plan = planOf([{ name: 'toString', in: 'query', schema: { type: 'string' } }]);
    const built = buildRequest(plan, {}, new URL('http://svc.test/'), {});
    expect(built.ok && built.url.href).toBe('http://svc.test/search');
  });
});
