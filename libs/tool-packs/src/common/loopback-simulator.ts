import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** Request bodies above this are refused (413): simulators take small JSON bodies only. */
export const MAX_SIMULATOR_BODY_BYTES = 64 * 1024;

/** A parsed request, as a simulator's `handle` sees it. */
export interface SimulatorRequest {
  readonly method: string;
  /** Decoded path segments: `/services/payment-api` → `['services', 'payment-api']`. */
  readonly segments: readonly string[];
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** The raw body, for signature checks. */
  readonly rawBody: string;
  /** The body parsed as JSON; undefined when empty or not JSON. */
  readonly body: unknown;
  /** Fires when the client goes away or the simulator closes: stop delaying. */
  readonly signal: AbortSignal;
}

/** What a simulator answers. */
export interface SimulatorResponse {
  readonly status: number;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Sent as is instead of `body` (HTML error pages); set the content-type header with it. */
  readonly text?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Counters every simulator keeps; subclasses add their own. */
export interface SimulatorStats {
  /** Requests received, `/__stats` excluded. */
  requests: number;
  /** Requests refused for missing or wrong credentials. */
  unauthorized: number;
  /** Requests whose client went away before the answer (e.g. a tool call that timed out). */
  abandoned: number;
}

/** The path at which a simulator reports its counters, for tests running the gateway elsewhere. */
export const SIMULATOR_STATS_PATH = '/__stats';

/**
 * A demo upstream on a real `node:http` server bound to 127.0.0.1 (port 0: the OS picks one).
 * Real sockets make the tools' timeouts, aborts and retries real too. `close()` destroys every
 * connection, including requests still held back by a delay.
 */
export abstract class LoopbackSimulator<TStats extends SimulatorStats = SimulatorStats> {
  /** Live counters; tests in this process read them directly. */
  abstract readonly stats: TStats;
  private server: Server | null = null;
  private baseUrl: string | null = null;
  private starting: Promise<string> | null = null;
  private closing: Promise<void> | null = null;
  private readonly inFlight = new Set<AbortController>();
  private faults: { remaining: number; status: number } = { remaining: 0, status: 503 };

  /** Answers one request. Thrown errors become 500s. */
  protected abstract handle(request: SimulatorRequest): SimulatorResponse | Promise<SimulatorResponse>;

  /** Starts listening; resolves to the base URL (`http://127.0.0.1:<port>`). Once per instance. */
  start(): Promise<string> {
    if (this.closing) return Promise.reject(new Error(`${this.constructor.name} is closed`));
    this.starting ??= this.listen();
    return this.starting;
  }

  /** The base URL; throws before `start()`. */
  get url(): string {
    if (!this.baseUrl) throw new Error(`${this.constructor.name} is not started`);
    return this.baseUrl;
  }

  /** Makes the next `count` requests answer `status` (default 503), to exercise retries. */
  failNext(count: number, status = 503): void {
    this.faults = { remaining: count, status };
  }

  /** Stops listening and destroys every connection, delayed ones included. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /** Waits `ms`, or rejects as soon as the request's signal fires. */
  protected delay(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private async listen(): Promise<string> {
    const server = createServer((req, res) => void this.serve(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  private async shutdown(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const server = this.server;
    for (const controller of this.inFlight) controller.abort(new Error('simulator closed'));
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const controller = new AbortController();
    this.inFlight.add(controller);
    res.once('close', () => {
      if (!res.writableFinished) {
        if (!this.closing) this.stats.abandoned++;
        controller.abort(new Error('client went away'));
      }
      this.inFlight.delete(controller);
    });
    let answer: SimulatorResponse;
    try {
      answer = await this.route(req, controller.signal);
    } catch (err) {
      if (controller.signal.aborted) return;
      answer = { status: 500, body: { error: 'INTERNAL', message: (err as Error).message } };
    }
    if (res.destroyed) return;
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers });
    res.end(answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body)));
  }

  private async route(req: IncomingMessage, signal: AbortSignal): Promise<SimulatorResponse> {
    const url = new URL(req.url ?? '/', 'http://simulator');
    if (req.method === 'GET' && url.pathname === SIMULATOR_STATS_PATH)
      return { status: 200, body: this.stats };
    this.stats.requests++;
    const rawBody = await readBody(req);
    if (rawBody === null)
      return { status: 413, body: { error: 'PAYLOAD_TOO_LARGE', message: 'body too large' } };
    if (this.faults.remaining > 0) {
      this.faults.remaining--;
      return { status: this.faults.status, body: { error: 'INJECTED_FAULT', message: 'simulated outage' } };
    }
    return this.handle({
      method: req.method ?? 'GET',
      segments: url.pathname.split('/').filter(Boolean).map(decodeSegment),
      query: url.searchParams,
      headers: req.headers,
      rawBody,
      body: parseJson(rawBody),
      signal,
    });
  }
}

/** The body as text, or null when it is too large. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_SIMULATOR_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A JSON error answer in the `{ error, message }` shape the ops simulator uses. */
export function errorAnswer(status: number, error: string, message: string): SimulatorResponse {
  return { status, body: { error, message } };
}
