import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

/** A running console server: `url` is its origin; the console lives at `${url}/console/`. */
export interface ConsoleServer {
  readonly url: string;
  close(): Promise<void>;
}

const CONSOLE_BASE = '/console';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** The file under `distDir` a console path names, or null when it leaves the folder or does not exist. */
async function fileFor(distDir: string, path: string): Promise<string | null> {
  const rel = normalize(decodeURIComponent(path)).replace(/^([/\\])+/, '');
  const file = join(distDir, rel);
  if (file !== distDir && !file.startsWith(distDir + sep)) return null;
  try {
    return (await stat(file)).isFile() ? file : null;
  } catch {
    return null;
  }
}

function proxy(req: IncomingMessage, res: ServerResponse, api: URL): void {
  const upstream = httpRequest(
    {
      host: api.hostname,
      port: api.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: api.host },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (err) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: err.message, code: 'INTERNAL_ERROR', suggestedAction: 'check the gateway' }),
    );
  });
  req.pipe(upstream);
}

/**
 * Serves the built console (`apps/console/dist`) at `/console/` with the SPA fallback to
 * index.html, and passes `/v1/*` through to the gateway at `apiBaseUrl`, so the browser sees one
 * origin as it will once the gateway serves the console itself. Test use only.
 */
export async function serveConsole(distDir: string, apiBaseUrl: string): Promise<ConsoleServer> {
  const api = new URL(apiBaseUrl);
  const root = normalize(distDir);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path.startsWith('/v1/')) return proxy(req, res, api);
    if (path === '/' || path === CONSOLE_BASE) {
      res.writeHead(302, { location: `${CONSOLE_BASE}/` });
      return res.end();
    }
    if (!path.startsWith(`${CONSOLE_BASE}/`)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('not found');
    }
    void (async () => {
      const rel = path.slice(CONSOLE_BASE.length);
      const asset = await fileFor(root, rel);
      // Unknown paths under /console are client routes; missing assets stay 404.
      const file = asset ?? (rel.startsWith('/assets/') ? null : join(root, 'index.html'));
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('not found');
      }
      res.writeHead(200, {
        'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': rel.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      });
      createReadStream(file).pipe(res);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
