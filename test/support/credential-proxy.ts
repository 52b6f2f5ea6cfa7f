import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An agent host's reverse proxy on loopback: it forwards every request to the gateway unchanged —
 * method, path, body, `Host` and `Origin` included — and adds `Authorization: Bearer <key>`.
 * For clients that cannot send a key themselves (the MCP conformance CLI connects with a bare URL).
 * Answers, SSE streams included, are piped back as they come.
 */
export class CredentialProxy {
  private server?: Server;
  port = 0;

  constructor(
    private target: URL,
    private key: string,
  ) {}

  /**
   * Points a started proxy at another target: a gateway that must know its public address (the
   * proxy's) before it starts, without reserving a port that something else may take meanwhile.
   */
  forward(target: URL, key: string): this {
    this.target = target;
    this.key = key;
    return this;
  }

  /** Listens on `port` (0: any free one) on 127.0.0.1. */
  async start(port = 0): Promise<this> {
    this.server = createServer((incoming, outgoing) => {
      const upstream = request(
        {
          host: this.target.hostname,
          port: this.target.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, authorization: `Bearer ${this.key}` },
        },
        (answer: IncomingMessage) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.on('error', () => outgoing.destroy());
      // The client going away closes the gateway's side too (MCP cancellation by closing).
      outgoing.on('close', () => upstream.destroy());
      incoming.pipe(upstream);
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
