import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

/**
 * How the body of a request is framed on the wire. `honest` lets the client library frame it;
 * the others are lies only a raw socket can tell (the request smuggling and truncation shapes).
 */
export type Framing =
  | 'honest'
  /** Content-Length says more than the body holds; then the client stops sending. */
  | 'length-longer'
  /** Content-Length says less than the body holds: the rest reads as a second request. */
  | 'length-shorter'
  /** Content-Length and Transfer-Encoding: chunked together. */
  | 'length-and-chunked'
  /** A chunked body whose chunk size is not hexadecimal. */
  | 'chunked-garbage'
  /** A correct chunked body (no Content-Length). */
  | 'chunked'
  /** `Expect: 100-continue`, then the body. */
  | 'expect-continue';

/** One request exactly as it goes on the wire. */
export interface WireRequest {
  readonly method: string;
  /** The request target as written on the request line: path and query, already encoded. */
  readonly target: string;
  /** Header values are byte strings (each char one byte, latin1), so any byte can be sent. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: Buffer;
  readonly framing: Framing;
}

/** One answer: what a client of the gateway received. */
export interface WireAnswer {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ', '. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly via: 'fetch' | 'http' | 'raw';
  readonly ms: number;
  /**
   * The whole answer arrived. Only a raw socket sees a cut one: after a framing lie the server may
   * close the connection while an answer to the request before the lie is still on its way.
   */
  readonly complete: boolean;
}

/** The server did not answer: the connection failed, was reset or closed, or the time ran out. */
export class NoAnswerError extends Error {
  override readonly name = 'NoAnswerError';
}

const FETCH_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);
/** Headers undici sets itself or refuses to take from the caller. */
const FETCH_OWNED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'host', 'expect']);

/** A connection pool of its own, so the fuzzer's sockets never queue behind anybody else's. */
const fuzzAgent = new Agent({ keepAlive: true, maxSockets: 8 });

/**
 * True when `fetch` puts exactly these bytes on the wire: it normalises dot segments, encodes some
 * characters, drops fragments, refuses bodies on GET/HEAD, owns some headers and only knows the
 * usual methods. Everything else goes through `node:http` or a raw socket.
 */
function fetchCanSend(req: WireRequest, base: string): boolean {
  if (req.framing !== 'honest' || !FETCH_METHODS.has(req.method)) return false;
  if (req.body && (req.method === 'GET' || req.method === 'HEAD')) return false;
  if (req.headers.some(([name, value]) => FETCH_OWNED_HEADERS.has(name) || !validFetchValue(value)))
    return false;
  if (new Set(req.headers.map(([name]) => name)).size !== req.headers.length) return false;
  if (!req.target.startsWith('/')) return false;
  try {
    const url = new URL(req.target, base);
    return url.pathname + url.search === req.target && !req.target.includes('#');
  } catch {
    return false;
  }
}

function validFetchValue(value: string): boolean {
  // undici trims nothing and refuses NUL, CR, LF and leading or trailing whitespace.
  return !/[\0\r\n]/.test(value) && value === value.trim();
}

function collectHeaders(entries: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    const key = name.toLowerCase();
    out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`;
  }
  return out;
}

async function viaFetch(base: string, req: WireRequest, timeoutMs: number): Promise<WireAnswer> {
  const started = performance.now();
  const headers = new Headers();
  for (const [name, value] of req.headers) headers.append(name, value);
  try {
    const res = await fetch(new URL(req.target, base), {
      method: req.method,
      headers,
      body: req.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = Buffer.from(await res.arrayBuffer());
    return {
      status: res.status,
      headers: collectHeaders(res.headers),
      body,
      via: 'fetch',
      ms: performance.now() - started,
      complete: true,
    };
  } catch (err) {
    throw new NoAnswerError(`fetch: ${describeError(err)}`);
  }
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function viaHttp(base: string, req: WireRequest, timeoutMs: number): Promise<WireAnswer> {
  const started = performance.now();
  const { hostname, port, host } = new URL(base);
  return new Promise<WireAnswer>((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new NoAnswerError(`node:http: ${describeError(err)}`));
    };
    // In this array form Node adds no Host header of its own.
    const headers = ['host', host, ...req.headers.flatMap(([name, value]) => [name, value])];
    if (req.body !== undefined && !req.headers.some(([n]) => n === 'content-length'))
      headers.push('content-length', String(req.body.length));
    const client = httpRequest({
      host: hostname,
      port: Number(port),
      method: req.method,
      path: req.target,
      headers,
      agent: fuzzAgent,
    });
    const timer = setTimeout(() => {
      client.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    client.on('error', fail);
    client.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', fail);
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          headers: flatHeaders(res.headers),
          body: Buffer.concat(chunks),
          via: 'http',
          ms: performance.now() - started,
          complete: true,
        });
      });
    });
    client.end(req.body);
  });
}

/** The bytes of a request whose framing lies (or is chunked), for a raw socket. */
function rawBytes(req: WireRequest, host: string): Buffer {
  const body = req.body ?? Buffer.alloc(0);
  const head = [`${req.method} ${req.target} HTTP/1.1`, `host: ${host}`];
  // The server closes once it has answered; only a body that never arrives needs the client's end.
  if (req.framing !== 'length-longer') head.push('connection: close');
  for (const [name, value] of req.headers) head.push(`${name}: ${value}`);
  let payload = body;
  switch (req.framing) {
    case 'length-longer':
      head.push(`content-length: ${body.length + 17}`);
      break;
    case 'length-shorter':
      head.push(`content-length: ${Math.max(0, body.length - 3)}`);
      break;
    case 'length-and-chunked':
      head.push(`content-length: ${body.length}`, 'transfer-encoding: chunked');
      payload = chunked(body);
      break;
    case 'chunked-garbage':
      head.push('transfer-encoding: chunked');
      payload = Buffer.concat([Buffer.from(`zz${body.length}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
      break;
    case 'chunked':
      head.push('transfer-encoding: chunked');
      payload = chunked(body);
      break;
    case 'expect-continue':
    case 'honest':
      if (req.framing === 'expect-continue') head.push('expect: 100-continue');
      if (req.body !== undefined) head.push(`content-length: ${body.length}`);
      break;
  }
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

function chunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += 4096) {
    const piece = body.subarray(at, at + 4096);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** Splits the bytes a server wrote into its responses (1xx ones skipped). */
export function parseResponses(
  raw: Buffer,
  method: string,
): { status: number; headers: Record<string, string>; body: Buffer; complete: boolean }[] {
  const out: { status: number; headers: Record<string, string>; body: Buffer; complete: boolean }[] = [];
  let at = 0;
  while (at < raw.length) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end === -1) break;
    const start = at;
    const [statusLine = '', ...lines] = raw.subarray(at, end).toString('latin1').split('\r\n');
    const status = Number(statusLine.split(' ')[1]);
    const headers = collectHeaders(
      lines.map((l): [string, string] => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]),
    );
    at = end + 4;
    if (status >= 100 && status < 200) continue;
    let body: Buffer;
    let complete = true;
    if (out.length === 0 && method === 'HEAD') {
      body = Buffer.alloc(0);
    } else if (headers['content-length'] !== undefined) {
      body = raw.subarray(at, at + Number(headers['content-length']));
      complete = body.length === Number(headers['content-length']);
      at += body.length;
    } else if (headers['transfer-encoding']?.includes('chunked')) {
      const parts: Buffer[] = [];
      complete = false;
      for (;;) {
        const lineEnd = raw.indexOf('\r\n', at);
        if (lineEnd === -1) break;
        const size = parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
        at = lineEnd + 2;
        if (!Number.isFinite(size) || size === 0) {
          const trailerEnd = raw.indexOf('\r\n', at);
          at = trailerEnd === -1 ? raw.length : trailerEnd + 2;
          complete = size === 0 && trailerEnd !== -1;
          break;
        }
        parts.push(raw.subarray(at, at + size));
        at += size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      body = raw.subarray(at);
      at = raw.length;
    }
    out.push({ status, headers, body, complete });
    if (at <= start) break; // a malformed stream: never read the same bytes twice
  }
  return out;
}

/**
 * Writes the request on a fresh socket (with `connection: close`, or half-closed when its body can
 * never arrive) and reads what the server writes until it closes the connection. Every complete
 * response counts (the rest of a body can read as a second request, which gets its answer too).
 */
function viaRaw(
  base: string,
  req: WireRequest,
  timeoutMs: number,
): Promise<{ answers: WireAnswer[]; raw: Buffer }> {
  const started = performance.now();
  const { hostname, port, host } = new URL(base);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let settled = false;
    // Only a lying Content-Length half-closes: Node's server takes a client's FIN for leaving, and
    // drops the answers of handlers still awaiting something (a file of /docs, the database).
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      const bytes = rawBytes(req, host);
      if (req.framing === 'length-longer') socket.end(bytes);
      else socket.write(bytes);
    });
    const finish = (err?: unknown) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      const raw = Buffer.concat(chunks);
      const answers = parseResponses(raw, req.method).map((r): WireAnswer => ({
        ...r,
        via: 'raw',
        ms: performance.now() - started,
      }));
      if (answers.length === 0)
        reject(new NoAnswerError(`raw socket: no response (${err ? describeError(err) : 'closed'})`));
      else resolve({ answers, raw });
    };
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => finish());
    socket.on('error', (err) => finish(err));
    socket.setTimeout(timeoutMs, () => finish(new Error(`no close within ${timeoutMs} ms`)));
  });
}

/** How a request was sent, and every answer it got (more than one only on a raw socket). */
export interface Exchange {
  readonly answers: readonly WireAnswer[];
}

/**
 * Sends one request with the client that puts exactly its bytes on the wire: `fetch` when it can,
 * `node:http` for what fetch cannot express (bodies on GET, raw paths, odd methods, repeated
 * headers), a raw socket for framing lies. Throws NoAnswerError when nothing came back in time.
 */
export async function sendWire(base: string, req: WireRequest, timeoutMs: number): Promise<Exchange> {
  if (req.framing !== 'honest') return viaRaw(base, req, timeoutMs);
  if (fetchCanSend(req, base)) return { answers: [await viaFetch(base, req, timeoutMs)] };
  return { answers: [await viaHttp(base, req, timeoutMs)] };
}

export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  const code = (err as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code;
  const detail = cause instanceof Error ? `: ${cause.message}` : '';
  return `${err.name}${code ? ` ${code}` : ''}: ${err.message}${detail}`;
}
