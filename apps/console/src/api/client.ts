/**
 * The one way the console talks to the gateway: same origin, `Authorization: Bearer <key>` (or
 * the session cookie of a person signed in through the IdP, with `X-CSRF-Token` on changes),
 * `Accept-Language` from the chosen language, and every JSON body unwrapped from its envelope.
 * A failure envelope becomes an {@link ApiError} carrying the code and the suggested action.
 * The credentials are handed to {@link createApiClient} explicitly (see ApiClientContext): no
 * module state, so rendering never has to configure anything.
 */
import type { Issue } from './types';

/** A failure answered by the API (or the network), as the envelope told it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly suggestedAction: string | null,
    readonly details: Record<string, unknown> | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** `details.issues[]` of an INVALID_INPUT answer. */
  get issues(): Issue[] {
    const issues = this.details?.issues;
    return Array.isArray(issues) ? (issues as Issue[]) : [];
  }
}

type Query = Record<string, string | number | undefined | null>;

/** What a client sends with every request; the providers build one client per session and language. */
export interface Credentials {
  /** The API key, or null before sign-in and for people signed in through the IdP (cookie). */
  readonly key: string | null;
  /** A browser session's CSRF token (from `GET /v1/me`), sent on every request that changes something. */
  readonly csrfToken?: string | null;
  /** Sent as Accept-Language, so envelope messages match the UI. */
  readonly language: string;
  /** A request with this key was answered 401 (key unknown or revoked): the session is over. */
  readonly onUnauthenticated: () => void;
}

interface RequestOptions {
  readonly body?: unknown;
  readonly signal?: AbortSignal;
}

/** The gateway as seen with one set of credentials. */
export interface ApiClient {
  /** Sends a request and returns the envelope's `data`; throws {@link ApiError} on a failure envelope. */
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  /** Like `request` for answers that are files (YAML, CSV, JSON Lines): the body as a Blob. */
  requestFile(path: string, signal?: AbortSignal): Promise<{ blob: Blob; filename: string | null }>;
}

/** A path with its query string; empty values are left out. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

async function failure(res: Response): Promise<ApiError> {
  const text = await res.text();
  let body: Record<string, unknown> | null = null;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* not an envelope: keep the status text */
  }
  return new ApiError(
    res.status,
    typeof body?.code === 'string' ? body.code : `HTTP_${res.status}`,
    typeof body?.error === 'string' ? body.error : text.slice(0, 300) || res.statusText,
    typeof body?.suggestedAction === 'string' ? body.suggestedAction : null,
    body?.details && typeof body.details === 'object' ? (body.details as Record<string, unknown>) : null,
  );
}

/** Methods that change nothing: no CSRF token. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A client that sends `credentials` with every request (nothing global: each caller holds its own). */
export function createApiClient(credentials: Credentials): ApiClient {
  async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { 'accept-language': credentials.language };
    if (credentials.key) headers.authorization = `Bearer ${credentials.key}`;
    if (credentials.csrfToken && !SAFE_METHODS.has(method)) headers['x-csrf-token'] = credentials.csrfToken;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(path, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw new ApiError(0, 'NETWORK_ERROR', (err as Error).message, null, null);
    }
    if (res.ok) return res;
    if (res.status === 401 && (credentials.key || credentials.csrfToken)) credentials.onUnauthenticated();
    throw await failure(res);
  }

  return {
    async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
      const res = await send(method, path, options);
      const body = (await res.json()) as { data: T; status?: string };
      return body.data;
    },
    async requestFile(path: string, signal?: AbortSignal) {
      const res = await send('GET', path, { signal });
      const disposition = res.headers.get('content-disposition') ?? '';
      const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? null;
      return { blob: await res.blob(), filename };
    },
  };
}

/** Hands a Blob to the browser as a download (fetch → Blob → object URL: the key stays a header). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
