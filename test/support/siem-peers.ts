import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { waitFor } from './wait.js';

/** A throwaway CA and a server certificate for 127.0.0.1 and localhost, made with openssl. */
export interface TestPki {
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
}

/** Makes the CA and certificate in `dir` (openssl, no other tool). */
export function makeTestPki(dir: string): TestPki {
  mkdirSync(dir, { recursive: true });
  const at = (f: string) => join(dir, f);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=Toolgate test CA',
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    at('server.key'),
    '-out',
    at('server.csr'),
  );
  writeFileSync(
    at('server.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    at('server.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    at('server.ext'),
    '-out',
    at('server.pem'),
  );
  return { caFile: at('ca.pem'), certFile: at('server.pem'), keyFile: at('server.key') };
}

/** Debian's rsyslogd, the syslog receiver of the SIEM tests (scripts/test-prerequisites.sh installs it). */
export const RSYSLOGD = '/usr/sbin/rsyslogd';

/** An rsyslogd of the test's own: one imtcp input (plain or TLS) writing each message's MSG to a file. */
export interface RsyslogInstance {
  readonly port: number;
  /** Every line written so far (one MSG per line). */
  lines(): string[];
  /** Stops it: SIGKILL, mid-stream, or SIGTERM. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port, appending to the same file. */
  restart(): Promise<RsyslogInstance>;
}

/**
 * Starts `rsyslogd -n` on an unprivileged port with a config of its own in `dir`: imtcp (octet
 * counting is on by default), for TLS the gtls netstream driver with `pki` (anonymous clients),
 * a Direct main queue (a message is written to the file before its connection is read further,
 * so what the sender saw read is in the file), and omfile writing `%msg%` per line.
 */
export async function startRsyslog(dir: string, port: number, pki?: TestPki): Promise<RsyslogInstance> {
  mkdirSync(join(dir, 'work'), { recursive: true });
  const out = join(dir, 'messages.log');
  const tls = pki
    ? `global(DefaultNetstreamDriver="gtls" DefaultNetstreamDriverCAFile="${pki.caFile}"
       DefaultNetstreamDriverCertFile="${pki.certFile}" DefaultNetstreamDriverKeyFile="${pki.keyFile}")\n`
    : '';
  const config = `global(workDirectory="${join(dir, 'work')}" maxMessageSize="64k")
${tls}main_queue(queue.type="Direct")
module(load="imtcp"${pki ? ' StreamDriver.Name="gtls" StreamDriver.Mode="1" StreamDriver.AuthMode="anon"' : ''})
input(type="imtcp" port="${port}" address="127.0.0.1")
template(name="msgonly" type="string" string="%msg%\\n")
action(type="omfile" file="${out}" template="msgonly")
`;
  const conf = join(dir, 'rsyslog.conf');
  writeFileSync(conf, config);
  execFileSync(RSYSLOGD, ['-N1', '-f', conf], { stdio: 'pipe' });
  const output: string[] = [];
  const child: ChildProcess = spawn(RSYSLOGD, ['-n', '-f', conf, '-i', join(dir, 'rsyslogd.pid')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`rsyslogd exited: ${output.join('')}`);
      return canConnect(port);
    },
    { timeoutMs: 30_000, intervalMs: 100, what: `rsyslogd listening on ${port}` },
  );
  const instance: RsyslogInstance = {
    port,
    lines: () => (existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean) : []),
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill(signal);
      }),
    restart: () => startRsyslog(dir, port, pki),
  };
  return instance;
}

async function canConnect(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

/** One batch a receiver took. */
export interface ReceivedBatch {
  readonly lines: Record<string, unknown>[];
  readonly signatureOk: boolean;
}

/** A loopback HTTPS receiver of SIEM batches (JSON lines), with the test's CA. */
export interface HttpsReceiver {
  readonly url: string;
  readonly batches: ReceivedBatch[];
  /** Closes it at once: listening socket and every connection (requests in flight are cut). */
  kill(): Promise<void>;
  /** Listens again on the same port. */
  revive(): Promise<void>;
}

/**
 * Starts the receiver. It checks `X-Toolgate-Signature` with `secret`, records a batch, then
 * answers 200 — or `refuse(lines)`'s status when it gives one (a receiver that will not take a record).
 */
export async function startHttpsReceiver(
  pki: TestPki,
  port: number,
  secret: string,
  refuse: (lines: Record<string, unknown>[]) => number | undefined = () => undefined,
): Promise<HttpsReceiver> {
  const batches: ReceivedBatch[] = [];
  const sockets = new Set<Socket>();
  let server: Server;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer(
        { key: readFileSync(pki.keyFile), cert: readFileSync(pki.certFile) },
        (req, res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          req.on('data', (c: Buffer) => {
            size += c.length;
            if (size > 16 * 1024 * 1024) req.destroy();
            else chunks.push(c);
          });
          req.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            const lines = body
              .split('\n')
              .filter(Boolean)
              .map((l) => JSON.parse(l) as Record<string, unknown>);
            const status = refuse(lines);
            if (status) {
              res.writeHead(status).end('refused');
              return;
            }
            batches.push({
              lines,
              signatureOk: signatureOk(secret, body, String(req.headers['x-toolgate-signature'] ?? '')),
            });
            res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
          });
        },
      );
      server.on('connection', (s: Socket) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  await listen();
  return {
    url: `https://127.0.0.1:${port}/ingest`,
    batches,
    kill: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
    revive: listen,
  };
}

function signatureOk(secret: string, body: string, header: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(`${m[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(m[2]!, 'hex'));
}
