import { isRetryable, withRetry } from '@toolgate/toolkit';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeErrorBody, JsonHttpClient } from './json-http-client.js';
import {
  LoopbackSimulator,
  type SimulatorRequest,
  type SimulatorResponse,
  type SimulatorStats,
} from './loopback-simulator.js';
import { UpstreamFormatError, UpstreamHttpError, UpstreamUnreachableError } from './upstream-errors.js';

const TOKEN = 'tok-3f9a-very-secret';
const PASSWORD = 'pa55-word-secret';

/** An upstream that answers what each path asks for, and echoes requests back in its errors. */
class ScriptedUpstream extends LoopbackSimulator {
  readonly stats: SimulatorStats = { requests: 0, unauthorized: 0, abandoned: 0 };
  protected async handle(req: SimulatorRequest): Promise<SimulatorResponse> {
    const route = req.segments.at(-1);
    const echo = {
      method: req.method,
      query: Object.fromEntries(req.query),
      headers: req.headers,
      body: req.body,
    };
    switch (route) {
      case 'echo':
        return { status: 200, body: echo };
      case 'leaky':
        // The worst upstream: repeats the credentials and the query in its error message.
        return {
          status: 403,
          body: {
            error: 'FORBIDDEN',
            message: `denied ${req.headers.authorization} for ?${req.query.toString()} ${PASSWORD}`,
          },
        };
      case 'odata':
        return {
          status: 404,
          body: { error: { code: 'ZMM/001', message: { lang: 'en', value: 'Supplier X unknown' } } },
        };
      case 'html':
        return {
          status: 502,
          text: '<html><body><h1>Bad Gateway</h1></body></html>',
          headers: { 'content-type': 'text/html' },
        };
      case 'echo-path':
        // Express's default 404: the request path, base path included, back in the body.
        return {
          status: 404,
          text: `<!DOCTYPE html><html><body><pre>Cannot ${req.method} /${req.segments.join('/')}</pre></body></html>`,
          headers: { 'content-type': 'text/html' },
        };
      case 'echo-url':
        return {
          status: 400,
          body: { message: `bad request http://127.0.0.1/${req.segments.join('/')}?${req.query.toString()}` },
        };
      case 'not-json':
        return { status: 200, text: 'hello', headers: { 'content-type': 'text/plain' } };
      case 'empty':
        return { status: 204 };
      case 'slow':
        await this.delay(5_000, req.signal);
        return { status: 200, body: {} };
      default:
        return { status: 404, body: { error: 'NO_ROUTE', message: 'no route' } };
    }
  }
}

describe('JsonHttpClient', () => {
  const upstream = new ScriptedUpstream();
  let client: JsonHttpClient;

  beforeAll(async () => {
    const baseUrl = await upstream.start();
    client = new JsonHttpClient({
      name: 'ops_api',
      baseUrl: `${baseUrl}/api/`,
      headers: { authorization: `Bearer ${TOKEN}` },
      secrets: [PASSWORD],
    });
  });
  afterAll(() => upstream.close());

  it('sends default headers and the query, and parses the JSON answer', async () => {
    const echo = await client.get<{ method: string; query: object; headers: Record<string, string> }>(
      '/echo',
      {
        query: { a: 1, b: 'x y', skip: undefined },
      },
    );
    expect(echo.method).toBe('GET');
    expect(echo.query).toEqual({ a: '1', b: 'x y' });
    expect(echo.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(echo.headers.accept).toBe('application/json');
  });

  it('posts JSON and lets a signer add per-request headers', async () => {
    const signed = new JsonHttpClient({
      name: 'nc',
      baseUrl: upstream.url,
      signRequest: (r) => ({ 'x-sig': `${r.method} ${r.pathWithQuery} ${r.body}` }),
    });
    const echo = await signed.post<{ headers: Record<string, string>; body: unknown }>(
      '/echo',
      { k: 'v' },
      { headers: { 'x-extra': '1' } },
    );
    expect(echo.body).toEqual({ k: 'v' });
    expect(echo.headers['content-type']).toBe('application/json');
    expect(echo.headers['x-sig']).toBe('POST /echo {"k":"v"}');
    expect(echo.headers['x-extra']).toBe('1');
  });

  it('answers undefined for an empty body', async () => {
    await expect(client.get('/empty')).resolves.toBeUndefined();
  });

  it('throws UpstreamHttpError with status, code and a short message; 4xx is not retryable', async () => {
    const err = await client.get('/odata').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamHttpError);
    expect(err).toMatchObject({
      status: 404,
      upstreamCode: 'ZMM/001',
      upstreamMessage: 'Supplier X unknown',
    });
    expect((err as Error).message).toBe('ops_api answered 404 to GET: Supplier X unknown');
    expect(err).toMatchObject({ method: 'GET', path: '/api/odata' });
    expect(isRetryable(err)).toBe(false);
  });

  it('never puts credentials, auth headers or the query in an error message', async () => {
    const err = (await client
      .get('/leaky', { query: { token: 'q-secret-value', user: 'zhang' } })
      .catch((e: unknown) => e)) as UpstreamHttpError;
    expect(err.status).toBe(403);
    for (const secret of [TOKEN, PASSWORD, 'q-secret-value', 'zhang'])
      expect(err.message).not.toContain(secret);
    expect(err.message).toMatch(/^ops_api answered 403 to GET: /);

    const basic = Buffer.from(`TOOLGATE:${PASSWORD}`).toString('base64');
    const sap = new JsonHttpClient({
      name: 'sap',
      baseUrl: upstream.url,
      headers: { authorization: `Basic ${basic}` },
    });
    const sapErr = (await sap.get('/leaky').catch((e: unknown) => e)) as Error;
    expect(sapErr.message).not.toContain(basic);
  });

  it('keeps the words of an HTML error page; 5xx is retryable', async () => {
    const err = await client.get('/html').catch((e: unknown) => e);
    expect((err as Error).message).toBe('ops_api answered 502 to GET: Bad Gateway');
    expect(isRetryable(err)).toBe(true);
  });

  it('never puts the URL, the path or a secret configured into the base URL in an error message', async () => {
    const secret = 'env-secret-9f3a2c';
    const leaky = new JsonHttpClient({ name: 'ops_api', baseUrl: `${upstream.url}/leak/${secret}/` });
    const pathErr = (await leaky.get('/x/echo-path').catch((e: unknown) => e)) as UpstreamHttpError;
    expect(pathErr.message).toBe('ops_api answered 404 to GET: Cannot GET /***/***/x/echo-path');
    expect(pathErr.path).toBe(`/leak/${secret}/x/echo-path`);

    const urlErr = (await leaky
      .get('/echo-url', { query: { user: 'zhang' } })
      .catch((e: unknown) => e)) as UpstreamHttpError;
    expect(urlErr.message).toBe('ops_api answered 400 to GET: bad request [url]');
  });

  it('strips tags from an HTML body the way /<[^>]*>/g did', () => {
    expect(describeErrorBody('<p>Bad <b>Gateway</b>').message).toBe(' Bad  Gateway ');
    expect(describeErrorBody('a < b > c < d').message).toBe('a   c < d');
    expect(describeErrorBody('<<a>b').message).toBe(' b');
    expect(describeErrorBody('<<<<').message).toBe('<<<<');
  });

  it('refuses a 2xx body that is not JSON, naming neither path nor body', async () => {
    const err = await client.get('/not-json').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamFormatError);
    expect((err as Error).message).toBe('ops_api answered 200 to GET with a body that is not JSON');
  });

  it('names neither host nor path when the upstream is unreachable', async () => {
    const gone = new ScriptedUpstream();
    const url = await gone.start();
    await gone.close();
    const unreachable = new JsonHttpClient({
      name: 'ops_api',
      baseUrl: url.replace('http://', 'http://admin:hunter22@'),
    });
    const err = await unreachable.get('/echo', { query: { token: 'abc' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamUnreachableError);
    expect((err as Error).message).toBe('ops_api unreachable (ECONNREFUSED)');
    expect(err).toMatchObject({ address: new URL(url).host });
    expect(isRetryable(err)).toBe(true);
  });

  it('stops when the signal fires and rethrows its reason', async () => {
    const controller = new AbortController();
    const reason = Object.assign(new Error('limit passed'), { name: 'TimeoutError' });
    setTimeout(() => controller.abort(reason), 50);
    const started = Date.now();
    await expect(client.get('/slow', { signal: controller.signal })).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('lets withRetry retry 5xx and give up at once on 4xx', async () => {
    const before = upstream.stats.requests;
    upstream.failNext(2, 503);
    await expect(withRetry(() => client.get('/echo'), { baseDelayMs: 10 })).resolves.toMatchObject({
      method: 'GET',
    });
    expect(upstream.stats.requests - before).toBe(3);

    const beforeNotFound = upstream.stats.requests;
    await expect(withRetry(() => client.get('/odata'), { baseDelayMs: 10 })).rejects.toMatchObject({
      status: 404,
    });
    expect(upstream.stats.requests - beforeNotFound).toBe(1);
  });
});

describe('JsonHttpClient against a hostile upstream', () => {
  const state = { bytesSent: 0, redirectedTo: 0 };
  let server: Server;
  let baseUrl = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      if (req.url?.startsWith('/moved'))
        return void res.writeHead(302, { location: `${baseUrl}/target` }).end();
      if (req.url?.startsWith('/target')) {
        state.redirectedTo++;
        return void res.end('{}');
      }
      // 40 MB of JSON string, sent as fast as the client takes it.
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('"');
      const more = () => {
        while (state.bytesSent < 40 * 1024 * 1024 && !res.destroyed) {
          state.bytesSent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        if (!res.destroyed) res.end('"');
      };
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('stops reading an answer past 10 MiB instead of holding it all', async () => {
    const client = new JsonHttpClient({ name: 'ops_api', baseUrl });
    const err = await client.get('/huge').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamFormatError);
    expect((err as Error).message).toContain('larger than 10485760 bytes');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The socket buffers on loopback hold a few MB more; far from the 40 MB sent to a reader that takes all.
    expect(state.bytesSent).toBeLessThan(26 * 1024 * 1024);
  });

  it('never follows a redirect, even to its own host', async () => {
    const client = new JsonHttpClient({ name: 'ops_api', baseUrl });
    const err = await client.get('/moved').catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'UpstreamHttpError', status: 302 });
    expect(state.redirectedTo).toBe(0);
  });
});
