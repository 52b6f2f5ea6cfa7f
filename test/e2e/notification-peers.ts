import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The tenant access token the fake Feishu open platform hands to an app for its id and secret. */
export function feishuAppToken(appId: string, appSecret: string): string {
  return `t-${appId}-${createHash('sha256').update(appSecret).digest('hex').slice(0, 12)}`;
}

/** One request a peer received, as sent. */
export interface ReceivedMessage {
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly raw: string;
  readonly body: any;
}

/**
 * The robots and webhooks approvals are announced to, as one real HTTP server on loopback: each
 * path answers as its platform documents (DingTalk and WeCom `{errcode: 0}`, Feishu `{code: 0}`,
 * a webhook 204). `failNext(path, n)` makes a path answer 500 n times, to test retries.
 */
export class NotificationPeers {
  readonly received: ReceivedMessage[] = [];
  private readonly failures = new Map<string, number>();
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://peer');
        const raw = Buffer.concat(chunks).toString('utf8');
        const left = this.failures.get(url.pathname) ?? 0;
        if (left > 0) {
          this.failures.set(url.pathname, left - 1);
          res.writeHead(500, { 'content-type': 'text/plain' }).end('peer down');
          return;
        }
        let body: any = null;
        try {
          body = JSON.parse(raw);
        } catch {
          /* keep null */
        }
        this.received.push({ path: url.pathname, query: url.searchParams, headers: req.headers, raw, body });
        const answer = url.pathname.endsWith('/tenant_access_token/internal')
          ? {
              code: 0,
              msg: 'ok',
              tenant_access_token: feishuAppToken(String(body?.app_id), String(body?.app_secret)),
              expire: 7200,
            }
          : url.pathname.startsWith('/open-apis/')
            ? { code: 0, msg: 'success', data: {} }
            : url.pathname.startsWith('/hook') || url.pathname.startsWith('/flaky')
              ? null
              : { errcode: 0, errmsg: 'ok' };
        if (answer === null) res.writeHead(204).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  failNext(path: string, times: number): void {
    this.failures.set(path, times);
  }

  /** Messages to a path about one approval. */
  about(pathPrefix: string, approvalId: string): ReceivedMessage[] {
    return this.received.filter((m) => m.path.startsWith(pathPrefix) && m.raw.includes(approvalId));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
