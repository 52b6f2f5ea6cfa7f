import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Egress } from '@toolgate/egress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dingtalkSign, toolgateSignature } from '../channels/signatures.js';
import { DEFAULT_NOTIFICATIONS_OPTIONS, type NotificationsOptions } from '../notifications.options.js';
import { PlatformAlarms } from './platform-alarms.js';

interface Received {
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly raw: string;
}

/** A webhook receiver and a DingTalk robot, as one real HTTP server on loopback. */
async function startPeer(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://peer');
      received.push({
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        raw: Buffer.concat(chunks).toString('utf8'),
      });
      if (url.pathname === '/hook') res.writeHead(204).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"errcode":0,"errmsg":"ok"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

describe('platform alarms through the notification channels', () => {
  let peer: Awaited<ReturnType<typeof startPeer>>;
  const secret = 'alarm-signing-secret';
  const token = 'dingtalk-robot-token';

  beforeAll(async () => {
    peer = await startPeer();
    process.env.TOOLGATE_NOTIFY_SPEC_ALARM_SECRET = secret;
    process.env.TOOLGATE_NOTIFY_SPEC_ALARM_TOKEN = token;
  });
  afterAll(() => new Promise((resolve) => peer.server.close(resolve)));

  const optionsFor = (minIntervalMs: number): NotificationsOptions => ({
    ...DEFAULT_NOTIFICATIONS_OPTIONS,
    publicUrl: 'https://gateway.example',
    alarms: {
      minIntervalMs,
      channels: {
        ops: { type: 'webhook', url: `${peer.url}/hook`, secretEnv: 'TOOLGATE_NOTIFY_SPEC_ALARM_SECRET' },
        oncall: {
          type: 'dingtalk',
          url: `${peer.url}/robot/send`,
          tokenEnv: 'TOOLGATE_NOTIFY_SPEC_ALARM_TOKEN',
          secretEnv: 'TOOLGATE_NOTIFY_SPEC_ALARM_SECRET',
        },
      },
    },
  });

  it('tells every channel, signed, then holds one kind back for minIntervalMs and counts what it held', async () => {
    const alarms = new PlatformAlarms(
      new Egress({ allowHosts: [], allowCidrs: ['127.0.0.1/32'] }),
      optionsFor(60_000),
    );
    const at = new Date('2026-12-02T10:00:00Z');
    const alarm = { kind: 'audit_write_failed', summary: 'no confirmation within 1000 ms', at };
    const t0 = 1_000_000;
    expect(await alarms.raise(alarm, t0)).toEqual({ sent: true, channels: { ops: null, oncall: null } });

    const hook = peer.received.find((r) => r.path === '/hook')!;
    const timestamp = hook.headers['x-toolgate-timestamp'] as string;
    expect(hook.headers['x-toolgate-signature']).toBe(toolgateSignature(secret, timestamp, hook.raw));
    expect(JSON.parse(hook.raw)).toMatchObject({
      event: 'platform.alarm',
      alarm: {
        kind: 'audit_write_failed',
        summary: 'no confirmation within 1000 ms',
        suppressed: 0,
        gateway: 'https://gateway.example',
      },
    });
    const robot = peer.received.find((r) => r.path === '/robot/send')!;
    expect(robot.query.get('access_token')).toBe(token);
    expect(robot.query.get('sign')).toBe(dingtalkSign(secret, robot.query.get('timestamp')!));
    expect(JSON.parse(robot.raw).markdown.text).toMatch(/audit_write_failed[\s\S]*no confirmation/);

    // Within the interval: held back (another kind is not).
    const before = peer.received.length;
    expect(await alarms.raise(alarm, t0 + 1_000)).toEqual({ sent: false, channels: {} });
    expect(await alarms.raise(alarm, t0 + 2_000)).toEqual({ sent: false, channels: {} });
    expect(peer.received.length).toBe(before);
    expect((await alarms.raise({ ...alarm, kind: 'audit_chain_broken' }, t0 + 2_000)).sent).toBe(true);

    // Past it: sent, saying how many were held back.
    expect((await alarms.raise(alarm, t0 + 60_000)).sent).toBe(true);
    const last = peer.received.filter((r) => r.path === '/hook').at(-1)!;
    expect(JSON.parse(last.raw).alarm).toMatchObject({ kind: 'audit_write_failed', suppressed: 2 });
  });

  it('sends nothing where the egress policy refuses, and says why', async () => {
    const alarms = new PlatformAlarms(new Egress({ allowHosts: [], allowCidrs: [] }), optionsFor(60_000));
    const before = peer.received.length;
    const outcome = await alarms.raise({ kind: 'audit_chain_broken', summary: 'x', at: new Date() });
    expect(outcome.sent).toBe(true);
    expect(outcome.channels.ops).toMatch(/^refused/);
    expect(peer.received.length).toBe(before);
  });
});
