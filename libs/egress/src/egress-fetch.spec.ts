import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { buildConnector } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBoundedBody } from './bounded-body.js';
import { createEgressFetch } from './egress-fetch.js';
import { EgressPolicy } from './egress-policy.js';
import type { ResolvedAddress } from './egress.options.js';
import { pinnedConnector } from './pinned-connector.js';

/** A loopback server whose handler a test sets; counts requests and the bytes it got into the socket. */
async function peer(host = '127.0.0.1') {
  const state = {
    hits: 0,
    bytesSent: 0,
    handle: (res: ServerResponse): void => void res.end('ok'),
  };
  const server: Server = createServer((req, res) => {
    state.hits++;
    req.resume();
    state.handle(res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    state,
    port,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Streams `total` bytes with backpressure, counting what the socket took. */
function streamBytes(total: number, counter: { bytesSent: number }) {
  return (res: ServerResponse) => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const more = () => {
      while (counter.bytesSent < total && !res.destroyed) {
        counter.bytesSent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      if (!res.destroyed) res.end();
    };
    more();
  };
}

const address = (a: string): ResolvedAddress[] => [{ address: a, family: a.includes(':') ? 6 : 4 }];

describe('the egress fetch: pinned connections, no redirects, bounded answers', () => {
  let a: Awaited<ReturnType<typeof peer>>;
  /** 127.0.0.2: a "private" host, outside the allowed 127.0.0.1/32. */
  let b: Awaited<ReturnType<typeof peer>>;
  const open = new EgressPolicy({ allowHosts: [], allowCidrs: ['127.0.0.1/32'] });

  beforeAll(async () => {
    a = await peer();
    b = await peer('127.0.0.2');
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('refuses a denied address before connecting, and fetch rejects with the EgressError itself', async () => {
    const closed = createEgressFetch(new EgressPolicy({ allowHosts: [], allowCidrs: [] }));
    const before = a.state.hits;
    await expect(closed(`${a.url}/x`)).rejects.toMatchObject({
      name: 'EgressError',
      failure: 'egress_denied',
    });
    await expect(createEgressFetch(open)(`${b.url}/x`)).rejects.toMatchObject({ failure: 'egress_denied' });
    expect(a.state.hits).toBe(before);
    expect(b.state.hits).toBe(0);
  });

  it('connects to the address it checked: a name that resolves elsewhere the second time (DNS rebinding) gains nothing', async () => {
    // First answer allowed, every later one a private address: a check-then-lookup client would
    // pass the check and connect to the private host.
    const answers = ['127.0.0.1', '127.0.0.2', '127.0.0.2'];
    let lookups = 0;
    const rebinding = new EgressPolicy({
      allowHosts: [],
      allowCidrs: ['127.0.0.1/32'],
      resolveHost: async () => address(answers[Math.min(lookups++, answers.length - 1)]!),
    });
    const seen: buildConnector.Options[] = [];
    const base: buildConnector.connector = (options, callback) => {
      seen.push(options);
      callback(new Error('stop here'), null);
    };
    const connect = pinnedConnector(rebinding, base);
    await new Promise<void>((resolve) =>
      connect(
        { hostname: 'svc.test', host: `svc.test:${b.port}`, protocol: 'https:', port: String(b.port) },
        () => resolve(),
      ),
    );
    // The base connector got the checked address, with the name kept for TLS.
    expect(seen).toEqual([expect.objectContaining({ hostname: '127.0.0.1', servername: 'svc.test' })]);
    expect(lookups).toBe(1);
    // Through fetch: the second resolution is private, and the connection is refused, not made.
    const fetch = createEgressFetch(rebinding);
    await expect(fetch(`http://svc.test:${b.port}/x`)).rejects.toMatchObject({ failure: 'egress_denied' });
    expect(b.state.hits).toBe(0);
  });

  it('never follows a redirect, not even to an allowed host', async () => {
    a.state.handle = (res) => void res.writeHead(307, { location: `${b.url}/inside` }).end();
    await expect(createEgressFetch(open)(`${a.url}/moved`)).rejects.toMatchObject({ failure: 'redirect' });
    a.state.handle = (res) => void res.writeHead(302, { location: `${a.url}/same-host` }).end();
    await expect(
      createEgressFetch(open)(`${a.url}/moved`, { method: 'POST', body: '{}' }),
    ).rejects.toMatchObject({
      failure: 'redirect',
    });
    expect(b.state.hits).toBe(0);
  });

  it('stops reading an answer at its bound, whoever reads it, and the peer gets no further', async () => {
    const bound = 1024 * 1024;
    a.state.bytesSent = 0;
    a.state.handle = streamBytes(64 * 1024 * 1024, a.state);
    const fetch = createEgressFetch(open, { maxResponseBytes: bound });
    const careless = await fetch(`${a.url}/huge`);
    await expect(careless.arrayBuffer()).rejects.toMatchObject({ failure: 'too_large' });
    // Kernel buffers on loopback hold a few MB; far from the 64 MB the peer meant to send.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(a.state.bytesSent).toBeLessThan(bound + 16 * 1024 * 1024);

    a.state.bytesSent = 0;
    expect(await readBoundedBody(await fetch(`${a.url}/huge`), bound / 2)).toEqual({ ok: false });
    a.state.handle = (res) => void res.writeHead(200, { 'content-length': String(bound + 1) }).end();
    await expect(fetch(`${a.url}/declared`)).rejects.toMatchObject({ failure: 'too_large' });
    a.state.handle = (res) => void res.end('small answer');
    expect(await (await fetch(`${a.url}/small`)).text()).toBe('small answer');
    a.state.handle = (res) => void res.writeHead(204).end();
    expect((await fetch(`${a.url}/empty`)).status).toBe(204);
  });

  it('refuses the gateway’s own port on loopback although 127.0.0.1 is allowed', async () => {
    const self = new EgressPolicy({ allowHosts: [], allowCidrs: ['127.0.0.1/32'] }, () => [a.port]);
    const before = a.state.hits;
    await expect(createEgressFetch(self)(`${a.url}/v1/admin/keys`)).rejects.toMatchObject({
      failure: 'egress_denied',
    });
    expect(a.state.hits).toBe(before);
  });
});
