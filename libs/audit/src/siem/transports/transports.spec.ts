import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { EgressPolicy } from '@toolgate/egress';
import { afterEach, describe, expect, it } from 'vitest';
import { draftEvent, type AuditEventRecord } from '../../audit-fields.js';
import { siemRecord } from '../formats/siem-record.js';
import { DEFAULT_SINK_OPTIONS, type HttpsSinkOptions, type SyslogSinkOptions } from '../siem.options.js';
import { HttpsTransport } from './https-transport.js';
import { SyslogTransport } from './syslog-transport.js';

const loopback = new EgressPolicy({ allowHosts: [], allowCidrs: ['127.0.0.1'] });
const publicOnly = new EgressPolicy({ allowHosts: [], allowCidrs: [] });
const batch = { sink: 's', tenantId: 'acme', fromSeq: 1, toSeq: 2 };

const records = [1, 2].map((seq) =>
  siemRecord(
    {
      ...draftEvent({
        tenantId: 'acme',
        event: 'finished',
        actor: { type: 'system', id: 'x' },
        occurredAt: new Date(),
      }),
      id: String(seq),
      seq,
      prevHash: '0'.repeat(64),
      hash: '1'.repeat(64),
    } as AuditEventRecord,
    DEFAULT_SINK_OPTIONS.maxRecordBytes,
  ),
);

const servers: (Server | HttpServer)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function listen<S extends Server | HttpServer>(server: S): Promise<number> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

const syslog = (port: number, policy = loopback) =>
  new SyslogTransport(
    {
      ...DEFAULT_SINK_OPTIONS,
      kind: 'syslog',
      name: 's',
      host: '127.0.0.1',
      port,
      timeoutMs: 30_000,
    } as SyslogSinkOptions,
    policy,
    '1',
  );

/** Reads octet-counted frames (RFC 6587 §3.4.1) back into messages. */
function unframe(data: Buffer): string[] {
  const out: string[] = [];
  for (let at = 0; at < data.length;) {
    const space = data.indexOf(0x20, at);
    const length = Number(data.subarray(at, space).toString());
    out.push(data.subarray(space + 1, space + 1 + length).toString('utf8'));
    at = space + 1 + length;
  }
  return out;
}

describe('syslog transport', () => {
  it('delivers when the receiver reads to the end and closes in order', async () => {
    let got = Buffer.alloc(0);
    const port = await listen(
      createServer((s) => {
        s.on('data', (d: Buffer) => (got = Buffer.concat([got, d])));
        s.on('end', () => s.end());
      }),
    );
    expect(await syslog(port).send(records)).toEqual({ kind: 'delivered' });
    const messages = unframe(got);
    expect(messages).toHaveLength(2);
    expect(JSON.parse(messages[1]!.slice(messages[1]!.indexOf('] ') + 2))).toMatchObject({ seq: 2 });
  });

  it('does not count a receiver that resets the connection as delivered', async () => {
    const port = await listen(createServer((s: Socket) => s.once('data', () => s.resetAndDestroy())));
    expect((await syslog(port).send(records)).kind).toBe('failed');
  });

  it('stops reading a receiver that talks back beyond a bound, and fails the batch', async () => {
    let written = 0;
    const port = await listen(
      createServer((s: Socket) => {
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (!s.destroyed && written < 64 * 1024 * 1024 && s.write(chunk)) written += chunk.length;
        };
        s.on('drain', pump);
        s.on('error', () => undefined);
        pump();
      }),
    );
    const outcome = await syslog(port).send(records);
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'the receiver sent data' });
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('connects only where the egress policy allows', async () => {
    let connections = 0;
    const port = await listen(createServer(() => connections++));
    const outcome = await syslog(port, publicOnly).send(records);
    expect(outcome.kind).toBe('failed');
    expect(connections).toBe(0);
  });
});

describe('https transport', () => {
  const https = (port: number) =>
    new HttpsTransport(
      {
        ...DEFAULT_SINK_OPTIONS,
        kind: 'https',
        name: 's',
        url: `http://127.0.0.1:${port}/in`,
        format: 'jsonl',
      } as HttpsSinkOptions,
      loopback,
    );
  const answering = (status: number, body: string | Buffer) =>
    listen(createHttpServer((req, res) => req.resume().on('end', () => res.writeHead(status).end(body))));

  it('a 2xx delivers, 408/429 and 5xx fail (5xx as answered), other 4xx refuse', async () => {
    expect(await https(await answering(200, 'ok')).send(records, batch)).toEqual({ kind: 'delivered' });
    expect(await https(await answering(503, 'later')).send(records, batch)).toMatchObject({
      kind: 'failed',
      answered: true,
    });
    expect(await https(await answering(429, 'slow')).send(records, batch)).toMatchObject({
      kind: 'failed',
      answered: false,
    });
    expect(await https(await answering(422, 'no')).send(records, batch)).toMatchObject({
      kind: 'refused',
      reason: 'HTTP 422: no',
    });
  });

  it('reads a receiver answer only to a bound', async () => {
    const outcome = await https(await answering(500, Buffer.alloc(8 * 1024 * 1024, 'y'))).send(
      records,
      batch,
    );
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind !== 'delivered' && outcome.reason.length).toBeLessThanOrEqual(220);
  });
});
