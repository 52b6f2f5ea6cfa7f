import { createOpenApiClient, OpenApiSourceError } from '../../libs/upstreams/src/openapi/index.js';
import { createEgressFetch, EgressPolicy } from '@toolgate/egress';
import type { UpstreamClient, UpstreamToolDefinition } from '@toolgate/upstreams';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenApiService, type FakeOpenApiService } from '../support/fake-openapi-service.js';

const TOKEN = 'Bearer sk-upstream-0123456789';
/** The fake service is on loopback: allowed explicitly, as the test gateways do. */
const fetch = createEgressFetch(new EgressPolicy({ allowHosts: [], allowCidrs: ['127.0.0.1/32'] }));

let service: FakeOpenApiService;
let client: UpstreamClient;

beforeEach(async () => {
  service = await startFakeOpenApiService();
  client = await createOpenApiClient({
    fetch,
    documentUrl: service.documentUrl,
    headers: { Authorization: TOKEN },
    timeoutMs: 5_000,
  });
});
afterEach(async () => {
  await client.close();
  await service.close();
});

const call = (name: string, args: unknown, timeoutMs = 5_000, signal = new AbortController().signal) =>
  client.callTool(name, args, { signal, timeoutMs });

const byName = (tools: UpstreamToolDefinition[], name: string) => tools.find((t) => t.name === name)!;

describe('listing an OpenAPI 3.0 document', () => {
  it('maps each operation to a tool, in document order, skipping bodies with no JSON form', async () => {
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'get_customer_by_id',
      'list_customers',
      'create_order',
      'cancel_order',
      'slow',
      'huge',
      'get_notes',
    ]);
    for (const tool of tools) expect(tool.name).toMatch(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/);
  });

  it('builds input schemas from parameters and the JSON body, never from credential headers', async () => {
    const tools = await client.listTools();
    const find = byName(tools, 'get_customer_by_id');
    expect(find.title).toBe('Find a customer');
    expect(find.description).toBe('Find a customer\n\nOne customer by id.');
    expect(find.inputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, 'X-Request-Tag': { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    });
    expect(find.annotations).toEqual({ readOnlyHint: true });
    const order = byName(tools, 'create_order');
    expect(order.inputSchema).toMatchObject({
      properties: { body: { type: 'object', required: ['sku', 'quantity'], additionalProperties: false } },
      required: ['body'],
    });
    expect(order.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(order.outputSchema).toMatchObject({
      type: 'object',
      properties: { orderId: { type: 'integer' } },
    });
    expect(byName(tools, 'cancel_order').annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(byName(tools, 'get_notes').description).toBe('GET /notes');
  });

  it('turns OpenAPI 3.0 schemas into JSON Schema: nullable as a type union, a cycle cut to "any"', async () => {
    const find = byName(await client.listTools(), 'get_customer_by_id');
    expect(find.outputSchema).toEqual({
      type: 'object',
      required: ['id', 'name'],
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        email: { type: ['string', 'null'] },
        referredBy: {},
      },
    });
    // Arrays are not object schemas: their answer is wrapped as { value }, so no outputSchema.
    expect(byName(await client.listTools(), 'list_customers').outputSchema).toBeUndefined();
  });

  it('reads the document again on every listing, so a changed definition shows', async () => {
    const changed = service.defaultDocument();
    changed.paths['/customers/{id}'].get.description = 'Now also deletes the customer.';
    changed.paths['/customers'].get.parameters.push({
      name: 'limit',
      in: 'query',
      schema: { type: 'integer' },
    });
    service.setDocument(changed);
    const tools = await client.listTools();
    expect(byName(tools, 'get_customer_by_id').description).toContain('Now also deletes');
    expect(Object.keys(byName(tools, 'list_customers').inputSchema.properties as object)).toEqual([
      'q',
      'tags',
      'limit',
    ]);
  });

  it('reads YAML documents and OpenAPI 3.1', async () => {
    service.setDocument(
      [
        'openapi: 3.1.0',
        'info: { title: Y, version: "1" }',
        'servers: [{ url: /api }]',
        'paths:',
        '  /customers/{id}:',
        '    get:',
        '      operationId: fetch-customer',
        '      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]',
        '      responses:',
        '        "200":',
        '          description: ok',
        '          content: { application/json: { schema: { type: object, properties: { email: { type: [string, "null"] } } } } }',
      ].join('\n'),
    );
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['fetch_customer']);
    expect(tools[0]!.outputSchema).toEqual({
      type: 'object',
      properties: { email: { type: ['string', 'null'] } },
    });
    expect(await call('fetch_customer', { id: 'c1' })).toMatchObject({ ok: true, data: { id: 'c1' } });
  });
});

describe('refusing documents', () => {
  const load = (document: object | string) => {
    service.setDocument(document);
    return createOpenApiClient({ documentUrl: service.documentUrl, timeoutMs: 5_000, fetch });
  };

  it('refuses Swagger 2.0, invalid OpenAPI and non-documents with a clear OpenApiSourceError', async () => {
    await expect(load({ swagger: '2.0', info: {}, paths: {} })).rejects.toMatchObject({
      failure: 'unsupported',
    });
    await expect(load({ openapi: '3.0.3', info: { title: 't' }, paths: { x: {} } })).rejects.toMatchObject({
      name: 'OpenApiSourceError',
      failure: 'invalid',
      message: expect.stringContaining('not valid OpenAPI'),
    });
    await expect(load('not: [valid')).rejects.toBeInstanceOf(OpenApiSourceError);
    await expect(
      createOpenApiClient({ documentUrl: 'file:///etc/passwd', timeoutMs: 1_000, fetch }),
    ).rejects.toMatchObject({ failure: 'invalid', message: expect.stringContaining('http or https') });
  });

  it('does not send calls (and credentials) to another origin the document names unless configured', async () => {
    const document = service.defaultDocument();
    document.servers = [{ url: 'http://169.254.169.254/latest' }];
    await expect(load(document)).rejects.toMatchObject({
      failure: 'invalid',
      message: expect.stringContaining('configure baseUrl'),
    });
    await expect(client.listTools()).rejects.toMatchObject({ failure: 'invalid' });
    const configured = await createOpenApiClient({
      fetch,
      documentUrl: service.documentUrl,
      baseUrl: `${service.url}/api`,
      timeoutMs: 5_000,
    });
    expect(await configured.listTools()).toHaveLength(7);
    await configured.close();
  });

  it('refuses a document over 5 MiB without reading all of it', async () => {
    const big = service.defaultDocument();
    big.info.description = 'x'.repeat(6 * 1024 * 1024);
    await expect(load(big)).rejects.toMatchObject({ failure: 'too_large' });
  });

  it('never fetches an external $ref: the schema it names reads as "any value"', async () => {
    const document = service.defaultDocument();
    document.components.schemas.Order = { $ref: `${service.url}/api/customers/c1` };
    const loaded = await load(document);
    expect(byName(await loaded.listTools(), 'create_order').outputSchema).toBeUndefined();
    expect(service.requests).toEqual([]);
    await loaded.close();
  });

  it('refuses a document whose schemas expand exponentially instead of holding the event loop', async () => {
    const document = service.defaultDocument();
    const schemas: Record<string, unknown> = { L0: { type: 'string' } };
    for (let i = 1; i <= 30; i++) {
      schemas[`L${i}`] = {
        type: 'object',
        properties: {
          a: { $ref: `#/components/schemas/L${i - 1}` },
          b: { $ref: `#/components/schemas/L${i - 1}` },
        },
      };
    }
    document.components.schemas = { ...document.components.schemas, ...schemas };
    document.paths['/customers'].get.responses[200].content['application/json'].schema = {
      $ref: '#/components/schemas/L30',
    };
    const started = Date.now();
    await expect(load(document)).rejects.toMatchObject({
      failure: 'too_large',
      message: expect.stringContaining('expand to more than'),
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('refuses a document nested absurdly deep', async () => {
    const document = service.defaultDocument();
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 1_000; i++) deep = { type: 'object', properties: { x: deep } };
    document.components.schemas.Deep = deep;
    await expect(load(document)).rejects.toMatchObject({
      failure: 'invalid',
      message: expect.stringContaining('deeper'),
    });
  });
});

describe('calling operations', () => {
  it('sends path, query and header parameters and the configured credentials', async () => {
    expect(await call('get_customer_by_id', { id: 'c1', 'X-Request-Tag': 'tag-1' })).toEqual({
      ok: true,
      data: { id: 'c1', name: 'Ada', email: 'ada@example.com' },
    });
    const [request] = service.requests;
    expect(request).toMatchObject({ method: 'GET', url: '/api/customers/c1' });
    expect(request!.headers).toMatchObject({ authorization: TOKEN, 'x-request-tag': 'tag-1' });
  });

  it('wraps a JSON array as { value } and serializes arrays as repeated query keys', async () => {
    expect(await call('list_customers', { q: 'a', tags: ['x', 'y z'] })).toEqual({
      ok: true,
      data: {
        value: [
          { id: 'c1', name: 'Ada', email: 'ada@example.com' },
          { id: 'c2', name: 'Grace', email: null },
        ],
      },
    });
    expect(service.requests[0]!.url).toBe('/api/customers?q=a&tags=x&tags=y+z');
  });

  it('posts the JSON body and forwards the idempotency key', async () => {
    const outcome = await client.callTool(
      'create_order',
      { body: { sku: 'A-1', quantity: 2 } },
      { signal: new AbortController().signal, timeoutMs: 5_000, idempotencyKey: 'idem-1' },
    );
    expect(outcome).toEqual({ ok: true, data: { orderId: 42, sku: 'A-1', quantity: 2 } });
    expect(service.requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/orders',
      body: '{"sku":"A-1","quantity":2}',
    });
    expect(service.requests[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      'idempotency-key': 'idem-1',
    });
  });

  it('answers {} for an empty 2xx and { text } for a text answer', async () => {
    expect(await call('cancel_order', { id: 7 })).toEqual({ ok: true, data: {} });
    expect(service.requests[0]).toMatchObject({ method: 'DELETE', url: '/api/orders/7' });
    expect(await call('get_notes', {})).toEqual({ ok: true, data: { text: 'plain words' } });
  });

  it('uses a configured base URL over the document servers', async () => {
    const other = await createOpenApiClient({
      fetch,
      documentUrl: service.documentUrl,
      baseUrl: `${service.url}/api/`,
      timeoutMs: 5_000,
    });
    expect(
      await other.callTool(
        'get_customer_by_id',
        { id: 'c2' },
        { signal: new AbortController().signal, timeoutMs: 5_000 },
      ),
    ).toMatchObject({ ok: true, data: { name: 'Grace' } });
    await other.close();
  });
});

describe('refusing what would leave the operation', () => {
  it('refuses ".", ".." and empty path values before sending anything', async () => {
    for (const id of ['..', '.', '']) {
      const outcome = await call('get_customer_by_id', { id });
      expect(outcome).toMatchObject({
        ok: false,
        envelope: { code: 'INVALID_INPUT', details: { issues: [{ path: 'id' }] } },
      });
    }
    expect(service.requests).toEqual([]);
  });

  it('percent-encodes slashes and hosts so a path value stays one segment under the base URL', async () => {
    await call('get_customer_by_id', { id: '../../admin' });
    await call('get_customer_by_id', { id: 'http://evil.example/x?y=1#z' });
    expect(service.requests.map((r) => r.url)).toEqual([
      '/api/customers/..%2F..%2Fadmin',
      '/api/customers/http%3A%2F%2Fevil.example%2Fx%3Fy%3D1%23z',
    ]);
  });

  it('never lets arguments set credential headers, nor split a header with a line break', async () => {
    await call('get_customer_by_id', {
      id: 'c1',
      Authorization: 'Bearer stolen',
      Host: 'evil',
      Cookie: 'a=b',
    });
    expect(service.requests[0]!.headers).toMatchObject({
      authorization: TOKEN,
      host: new URL(service.url).host,
    });
    expect(service.requests[0]!.headers.cookie).toBeUndefined();
    const outcome = await call('get_customer_by_id', { id: 'c1', 'X-Request-Tag': 'a\r\nX-Evil: 1' });
    expect(outcome).toMatchObject({ ok: false, envelope: { code: 'INVALID_INPUT' } });
    expect(service.requests).toHaveLength(1);
  });
});

describe('failures', () => {
  it('maps 4xx and 5xx to UPSTREAM_ERROR with the status and an excerpt, credentials masked', async () => {
    const notFound = await call('get_customer_by_id', { id: 'nobody' });
    expect(notFound).toMatchObject({
      ok: false,
      envelope: { code: 'UPSTREAM_ERROR', details: { status: 404 } },
    });
    expect(JSON.stringify(notFound)).toContain('no customer nobody');
    const conflict = await call('create_order', { body: { sku: 'gone', quantity: 1 } });
    expect(JSON.stringify(conflict)).toContain('409');
    expect(JSON.stringify(conflict)).toContain('sku discontinued');
    const crash = await call('get_customer_by_id', { id: 'boom' });
    expect(crash).toMatchObject({
      ok: false,
      envelope: { code: 'UPSTREAM_ERROR', details: { status: 500 } },
    });
    expect(JSON.stringify(crash)).toContain('database down');
    expect(JSON.stringify(crash)).not.toContain('sk-upstream-0123456789');
  });

  it('refuses an answer over 10 MiB', async () => {
    const outcome = await call('huge', {});
    expect(outcome).toMatchObject({ ok: false, envelope: { code: 'UPSTREAM_ERROR' } });
    expect(JSON.stringify(outcome)).toContain('too large');
  });

  it('answers TIMEOUT at its own time limit and rejects at once when the caller aborts', async () => {
    let started = Date.now();
    expect(await call('slow', { ms: 5_000 }, 200)).toMatchObject({
      ok: false,
      envelope: { code: 'TIMEOUT' },
    });
    expect(Date.now() - started).toBeLessThan(1_500);
    const controller = new AbortController();
    const reason = new Error('cancelled by the caller');
    setTimeout(() => controller.abort(reason), 100);
    started = Date.now();
    await expect(call('slow', { ms: 5_000 }, 5_000, controller.signal)).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('answers UPSTREAM_ERROR when the service cannot be reached, and for an unknown tool', async () => {
    await service.close();
    const outcome = await call('get_customer_by_id', { id: 'c1' });
    expect(outcome).toMatchObject({ ok: false, envelope: { code: 'UPSTREAM_ERROR' } });
    // Refused on a new connection, or closed under a pooled keep-alive one: either way the reason is named.
    expect(JSON.stringify(outcome)).toMatch(/ECONNREFUSED|UND_ERR_SOCKET|ECONNRESET/);
    expect(await call('no_such_tool', {})).toMatchObject({ ok: false, envelope: { code: 'UPSTREAM_ERROR' } });
  });
});
