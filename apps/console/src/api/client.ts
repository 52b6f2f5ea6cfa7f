/**
 * The one way the console talks to the gateway: same origin, `Authorization: Bearer <key>`,
 * `Accept-Language` from the chosen language, and every JSON body unwrapped from its envelope.
 * A failure envelope becomes an {@link ApiError} carrying the code and the suggested action.
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

interface ClientHooks {
  key: () => string | null;
  language: () => string;
  /** The key is unknown or revoked: the session is over. */
  onUnauthenticated: () => void;
}

const hooks: ClientHooks = { key: () => null, language: () => 'zh-CN', onUnauthenticated: () => {} };

/** Wires the client to the session and the language (done once by the providers). */
export function configureClient(next: Partial<ClientHooks>): void {
  Object.assign(hooks, next);
}

/** A path with its query string; empty values are left out. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

interface RequestOptions {
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** Use this key instead of the session's (sign-in checks a key before keeping it). */
  readonly key?: string;
}

async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { 'accept-language': hooks.language() };
  const key = options.key ?? hooks.key();
  if (key) headers.authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  try {
    return await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK_ERROR', (err as Error).message, null, null);
  }
}

async function failure(res: Response, sentKey: boolean): Promise<ApiError> {
  const text = await res.text();
  let body: Record<string, unknown> | null = null;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* not an envelope: keep the status text */
  }
  if (res.status === 401 && sentKey) hooks.onUnauthenticated();
  return new ApiError(
    res.status,
    typeof body?.code === 'string' ? body.code : `HTTP_${res.status}`,
    typeof body?.error === 'string' ? body.error : text.slice(0, 300) || res.statusText,
    typeof body?.suggestedAction === 'string' ? body.suggestedAction : null,
    body?.details && typeof body.details === 'object' ? (body.details as Record<string, unknown>) : null,
  );
}

/** Sends a request and returns the envelope's `data`; throws {@link ApiError} on a failure envelope. */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const res = await send(method, path, options);
  if (!res.ok) throw await failure(res, !options.key && Boolean(hooks.key()));
  const body = (await res.json()) as { data: T; status?: string };
  return body.data;
}

/** Like {@link request} for answers that are files (YAML, CSV, JSON Lines): the body as a Blob. */
export async function requestFile(
  path: string,
  signal?: AbortSignal,
): Promise<{ blob: Blob; filename: string | null }> {
  const res = await send('GET', path, { signal });
  if (!res.ok) throw await failure(res, true);
  const disposition = res.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? null;
  return { blob: await res.blob(), filename };
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
