import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback peer that answers every request with a redirect. */
export interface RedirectingPeer {
  readonly url: string;
  /** Requests it answered. */
  hits(): number;
  close(): Promise<void>;
}

/**
 * Answers every request with `307 Location: <target><path>` (307 keeps the method and body, so a
 * client that followed it would POST the same JSON-RPC message or webhook there).
 */
export async function startRedirectingPeer(target: string): Promise<RedirectingPeer> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    req.resume();
    res.writeHead(307, { location: `${target}${req.url ?? '/'}` }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
