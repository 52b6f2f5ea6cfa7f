import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake service received, as it arrived. */
export interface FakeOpenApiRequest {
  readonly method: string;
  /** Path and query exactly as sent (not normalized). */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A loopback REST service that serves its own OpenAPI 3.0 document at /openapi.json. */
export interface FakeOpenApiService {
  /** The origin, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  readonly documentUrl: string;
  /** Every request but the document's, in order. */
  readonly requests: FakeOpenApiRequest[];
  /** Requests of any kind, the document's included. */
  readonly hits: () => number;
  /** Serves another document from now on: an object (as JSON) or raw text (e.g. YAML). */
  setDocument(document: object | string): void;
  /** A fresh copy of the default document, to edit and serve again. */
  defaultDocument(): Record<string, any>;
  close(): Promise<void>;
}

const json = { 'application/json': { schema: { $ref: '#/components/schemas/Customer' } } };

/** The service's description; calls go to `/api` (servers[0].url, relative to the document). */
function baseDocument(): Record<string, any> {
  return {
    openapi: '3.0.3',
    info: { title: 'Fake CRM', version: '1.0.0' },
    servers: [{ url: '/api' }],
    paths: {
      '/customers/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          operationId: 'getCustomerById',
          summary: 'Find a customer',
          description: 'One customer by id.',
          parameters: [
            { name: 'X-Request-Tag', in: 'header', schema: { type: 'string' } },
            { name: 'Authorization', in: 'header', schema: { type: 'string' } },
          ],
          responses: { 200: { description: 'The customer', content: json }, 404: { description: 'Unknown' } },
        },
      },
      '/customers': {
        get: {
          operationId: 'listCustomers',
          summary: 'Search customers',
          parameters: [
            { name: 'q', in: 'query', schema: { type: 'string' } },
            { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          ],
          responses: {
            200: {
              description: 'Matches',
              content: {
                'application/json': {
                  schema: { type: 'array', items: { $ref: '#/components/schemas/Customer' } },
                },
              },
            },
          },
        },
      },
      '/orders': {
        post: {
          operationId: 'createOrder',
          summary: 'Place an order',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderRequest' } } },
          },
          responses: {
            201: {
              description: 'Placed',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } },
            },
          },
        },
      },
      '/orders/{id}': {
        delete: {
          operationId: 'cancelOrder',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
          responses: { 204: { description: 'Cancelled' } },
        },
      },
      '/slow': {
        get: {
          operationId: 'slow',
          parameters: [{ name: 'ms', in: 'query', required: true, schema: { type: 'integer' } }],
          responses: { 200: { description: 'Late' } },
        },
      },
      '/huge': { get: { operationId: 'huge', responses: { 200: { description: 'Over 10 MiB' } } } },
      '/notes': { get: { responses: { 200: { description: 'Text', content: { 'text/plain': {} } } } } },
      '/upload': {
        post: {
          operationId: 'upload',
          requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } },
          responses: { 200: { description: 'Stored' } },
        },
      },
    },
    components: {
      schemas: {
        Customer: {
          type: 'object',
          required: ['id', 'name'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            email: { type: 'string', nullable: true },
            referredBy: { $ref: '#/components/schemas/Customer' },
          },
        },
        OrderRequest: {
          type: 'object',
          required: ['sku', 'quantity'],
          properties: { sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
          additionalProperties: false,
        },
        Order: {
          type: 'object',
          properties: {
            orderId: { type: 'integer' },
            sku: { type: 'string' },
            quantity: { type: 'integer' },
          },
        },
      },
    },
  };
}

const CUSTOMERS = [
  { id: 'c1', name: 'Ada', email: 'ada@example.com' },
  { id: 'c2', name: 'Grace', email: null },
];

function send(res: ServerResponse, status: number, body?: unknown, type = 'application/json'): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { 'content-type': type }).end(typeof body === 'string' ? body : JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = new URL(req.url ?? '/', 'http://fake');
  const path = url.pathname;
  const customer = /^\/api\/customers\/([^/]+)$/.exec(path);
  if (req.method === 'GET' && customer) {
    const id = decodeURIComponent(customer[1]!);
    if (id === 'boom') {
      // Echoes the credential it received, as careless services do: the client must not quote it.
      return send(res, 500, { error: `database down (caller ${req.headers.authorization ?? 'anonymous'})` });
    }
    const found = CUSTOMERS.find((c) => c.id === id);
    return found ? send(res, 200, found) : send(res, 404, { error: `no customer ${id}` });
  }
  if (req.method === 'GET' && path === '/api/customers') {
    const q = url.searchParams.get('q') ?? '';
    return send(
      res,
      200,
      CUSTOMERS.filter((c) => c.name.toLowerCase().includes(q.toLowerCase())),
    );
  }
  if (req.method === 'POST' && path === '/api/orders') {
    const order = JSON.parse(body) as { sku: string; quantity: number };
    if (order.sku === 'gone') return send(res, 409, 'sku discontinued', 'text/plain');
    // A lone UTF-16 surrogate escaped in the JSON text, as a broken encoder upstream writes it.
    if (order.sku === 'odd-text') return send(res, 201, '{"orderId":43,"sku":"odd\\ud800","quantity":1}');
    return send(res, 201, { orderId: 42, ...order });
  }
  if (req.method === 'DELETE' && /^\/api\/orders\/\d+$/.test(path)) return send(res, 204);
  if (req.method === 'GET' && path === '/api/notes') return send(res, 200, 'plain words', 'text/plain');
  if (req.method === 'GET' && path === '/api/huge') {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const more = () => {
      while (sent < 12 && !res.destroyed) {
        sent++;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    return more();
  }
  if (req.method === 'GET' && path === '/api/slow') {
    const timer = setTimeout(() => send(res, 200, { late: true }), Number(url.searchParams.get('ms')));
    res.on('close', () => clearTimeout(timer));
    return;
  }
  send(res, 404, { error: `no route ${req.method} ${path}` });
}

/** Starts the fake service on a free loopback port. */
export async function startFakeOpenApiService(): Promise<FakeOpenApiService> {
  let document: object | string = baseDocument();
  const requests: FakeOpenApiRequest[] = [];
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    if (req.url === '/openapi.json') {
      return typeof document === 'string'
        ? send(res, 200, document, 'application/yaml')
        : send(res, 200, document);
    }
    readBody(req)
      .then((body) => {
        requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        route(req, res, body);
      })
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    documentUrl: `${url}/openapi.json`,
    requests,
    hits: () => hits,
    setDocument: (next) => {
      document = next;
    },
    defaultDocument: baseDocument,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
