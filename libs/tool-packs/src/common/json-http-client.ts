import { SpanKind } from '@opentelemetry/api';
import {
  createEgressFetch,
  EgressPolicy,
  egressErrorOf,
  MAX_ANSWER_BYTES,
  type EgressFetch,
} from '@toolgate/egress';
import { injectTraceparent, inSpan, TraceAttr, tracingEnabled } from '@toolgate/telemetry';
import { redact, secretFormsOf } from './redaction.js';
import { UpstreamFormatError, UpstreamHttpError, UpstreamUnreachableError } from './upstream-errors.js';

/** A query value; `undefined` leaves the parameter out. */
export type QueryValue = string | number | boolean | undefined;

/** What a per-request signer sees: enough to sign method, path, query and body. */
export interface OutgoingRequest {
  readonly method: 'GET' | 'POST';
  /** The path as the upstream receives it, base path and query included. */
  readonly pathWithQuery: string;
  /** The serialized JSON body, or '' for none. */
  readonly body: string;
}

/** Settings of one upstream client. */
export interface JsonHttpClientOptions {
  /** Names the upstream in errors, e.g. `ops_api`. */
  readonly name: string;
  /** `http(s)://host[:port][/base/path]`. */
  readonly baseUrl: string;
  /** Sent with every request (authentication, tenant headers). Their values are masked in errors. */
  readonly headers?: Readonly<Record<string, string>>;
  /** More values to mask in errors (passwords, signing secrets that never go on the wire). */
  readonly secrets?: readonly string[];
  /** Headers computed per request, e.g. an HMAC signature over the request. */
  readonly signRequest?: (request: OutgoingRequest) => Record<string, string>;
}

/** Per-request settings. */
export interface JsonRequestOptions {
  readonly query?: Readonly<Record<string, QueryValue>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** Pass `ctx.abortSignal`: the request stops when the tool call passes its time limit. */
  readonly signal?: AbortSignal;
}

/**
 * A small JSON client shared by the connectors, sending through the egress lib (ADR 026): its
 * configured host is the one destination allowed (where a connector points is a platform setting,
 * ADR 010), a redirect is never followed, and an answer is read up to MAX_ANSWER_BYTES. Failures are typed:
 * `UpstreamHttpError` (with `status`, for `isRetryable`), `UpstreamUnreachableError`,
 * `UpstreamFormatError`; an abort rethrows the signal's reason. No error message carries the
 * credentials, the auth headers, the URL (host, path or query) or the configured base URL's parts.
 * @example
 * const http = new JsonHttpClient({ name: 'ops_api', baseUrl, headers: { authorization: `Bearer ${token}` } });
 * const status = await http.get<ServiceDto>(`/services/${encodeURIComponent(name)}`, { signal: ctx.abortSignal });
 */
export class JsonHttpClient {
  private readonly base: URL;
  private readonly secrets: string[];
  private readonly fetch: EgressFetch;

  constructor(private readonly options: JsonHttpClientOptions) {
    this.base = new URL(options.baseUrl);
    // The platform chose this host (tenant admins may not change a connector's endpoint): it is
    // allowed by that authority, whatever it resolves to; nothing else is reachable from here.
    this.fetch = createEgressFetch(new EgressPolicy({ allowHosts: [this.base.hostname], allowCidrs: [] }));
    this.secrets = secretFormsOf([
      ...Object.values(options.headers ?? {}),
      ...(options.secrets ?? []),
      // Userinfo in the base URL is a credential too.
      ...[safeDecode(this.base.username), safeDecode(this.base.password)].filter(Boolean),
      // Host and base path come from configuration, which may interpolate secrets into them; an
      // upstream echoing the request ("Cannot GET /base/…") must not hand them back.
      ...configuredParts(this.base),
    ]);
  }

  /** `GET path?query`, answering the parsed JSON body. */
  get<T>(path: string, options: JsonRequestOptions = {}): Promise<T> {
    return this.send<T>('GET', path, undefined, options);
  }

  /** `POST path` with a JSON body, answering the parsed JSON body. */
  post<T>(path: string, body: unknown, options: JsonRequestOptions = {}): Promise<T> {
    return this.send<T>('POST', path, body, options);
  }

  private async send<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    options: JsonRequestOptions,
  ): Promise<T> {
    const url = this.urlFor(path, options.query);
    const payload = body === undefined ? '' : JSON.stringify(body);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.options.headers,
      ...options.headers,
    };
    if (payload) headers['content-type'] = 'application/json';
    if (this.options.signRequest) {
      Object.assign(
        headers,
        this.options.signRequest({ method, pathWithQuery: url.pathname + url.search, body: payload }),
      );
    }
    // For the errors' `path` property (logs), never for their messages.
    const shownPath = url.pathname;
    let response: Response;
    let text: string;
    let status = 0;
    try {
      // The egress fetch never follows a redirect: credentials are never replayed to wherever it points.
      response = await this.fetchTraced(url, {
        method,
        headers,
        body: payload || undefined,
        signal: options.signal,
      });
      status = response.status;
      text = await response.text();
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason ?? err;
      const egress = egressErrorOf(err);
      if (egress?.failure === 'too_large')
        throw new UpstreamFormatError(
          this.options.name,
          status,
          method,
          shownPath,
          `an answer larger than ${MAX_ANSWER_BYTES} bytes`,
        );
      if (egress?.failure === 'redirect')
        throw new UpstreamHttpError(
          this.options.name,
          egress.status ?? 0,
          method,
          shownPath,
          'a redirect (not followed)',
        );
      throw new UpstreamUnreachableError(
        this.options.name,
        this.base.host,
        egress?.failure ?? systemCode(err),
      );
    }
    if (!response.ok) {
      const { message, code } = describeErrorBody(text);
      throw new UpstreamHttpError(
        this.options.name,
        response.status,
        method,
        shownPath,
        message ? redact(message, this.secrets) : undefined,
        code,
      );
    }
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new UpstreamFormatError(
        this.options.name,
        response.status,
        method,
        shownPath,
        'a body that is not JSON',
      );
    }
  }

  /**
   * The fetch in a client span (`toolgate.upstream`, method, host, status — never the path or
   * query, which may carry input values), with `traceparent` injected so an upstream that traces
   * (SAP, NC) joins the caller's trace. Without tracing, a plain fetch.
   */
  private fetchTraced(url: URL, init: RequestInit & { headers: Record<string, string> }): Promise<Response> {
    if (!tracingEnabled()) return this.fetch(url, init);
    const attributes = {
      [TraceAttr.UPSTREAM]: this.options.name,
      [TraceAttr.HTTP_METHOD]: init.method ?? 'GET',
      [TraceAttr.SERVER_ADDRESS]: this.base.hostname,
    };
    return inSpan(
      `${init.method} ${this.options.name}`,
      { kind: SpanKind.CLIENT, attributes },
      async (span) => {
        const response = await this.fetch(url, { ...init, headers: injectTraceparent({ ...init.headers }) });
        span?.setAttribute(TraceAttr.HTTP_STATUS, response.status);
        return response;
      },
    );
  }

  private urlFor(path: string, query: JsonRequestOptions['query']): URL {
    const basePath = this.base.pathname.replace(/\/+$/, '');
    const url = new URL(this.base.origin);
    url.pathname = `${basePath}${path.startsWith('/') ? path : `/${path}`}`;
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The host and each base path segment, as written and decoded. */
function configuredParts(base: URL): string[] {
  const segments = base.pathname.split('/').filter(Boolean);
  return [base.host, base.hostname, ...segments, ...segments.map(safeDecode)];
}

/** The system error code under fetch's generic "fetch failed" TypeError. */
function systemCode(err: unknown): string | undefined {
  const cause = (err as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/**
 * The readable message and code of an error body, for the common shapes: `{ message }`,
 * `{ error: 'CODE', message }`, `{ error: { code, message } }`, OData's
 * `{ error: { code, message: { value } } }`, `{ code, msg }`; plain text otherwise.
 */
export function describeErrorBody(text: string): { message?: string; code?: string } {
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // An HTML error page says little in its markup; keep the words.
    return { message: withoutTags(text) };
  }
  if (!parsed || typeof parsed !== 'object') return { message: String(parsed) };
  const body = parsed as Record<string, unknown>;
  const error = body.error;
  const nested = error && typeof error === 'object' ? (error as Record<string, unknown>) : undefined;
  const nestedMessage = nested?.message;
  const message =
    str(body.message) ??
    str(nestedMessage) ??
    str((nestedMessage as Record<string, unknown> | undefined)?.value) ??
    str(body.msg) ??
    str(error);
  const code =
    str(nested?.code) ??
    (typeof error === 'string' && error !== message ? error : undefined) ??
    str(body.code);
  return { message, code };
}

/**
 * The text with each `<…>` replaced by a space, as `/<[^>]*>/g` would, in one pass: that regex
 * rescans to the end from every `<` when no `>` follows (`<<<<…` is quadratic).
 */
function withoutTags(html: string): string {
  const parts: string[] = [];
  let copied = 0;
  for (let open = html.indexOf('<'); open !== -1; open = html.indexOf('<', copied)) {
    const close = html.indexOf('>', open + 1);
    // No `>` after this `<` means none after any later `<` either: the rest is text.
    if (close === -1) break;
    parts.push(html.slice(copied, open));
    copied = close + 1;
  }
  parts.push(html.slice(copied));
  return parts.join(' ');
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v ? v : undefined;
}
