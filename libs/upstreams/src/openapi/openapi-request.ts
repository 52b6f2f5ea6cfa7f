import type { OperationParameter, OperationPlan } from './openapi-operations.js';

/** A request ready for fetch, or the argument that cannot be sent and why. */
export type BuiltRequest =
  | {
      readonly ok: true;
      readonly url: URL;
      readonly init: { method: string; headers: Headers; body?: string };
    }
  | { readonly ok: false; readonly argName: string; readonly message: string };

/** Characters a header value may not carry (fetch would throw; a CR/LF would split the request). */
const UNSAFE_HEADER_VALUE = /[\r\n\0]/;

class ArgumentRefused extends Error {
  constructor(
    readonly argName: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Builds the HTTP request of one call. Path values are percent-encoded and may not be `.`, `..` or
 * empty, and the final URL must stay under the base URL, so no argument reaches another path or
 * host. Header arguments exist only for the operation's own header parameters (credentials and
 * routing headers never become arguments) and the configured headers are set last, so they win.
 */
export function buildRequest(
  plan: OperationPlan,
  args: unknown,
  baseUrl: URL,
  configuredHeaders: Readonly<Record<string, string>>,
): BuiltRequest {
  const input =
    args !== null && typeof args === 'object' && !Array.isArray(args)
      ? (args as Record<string, unknown>)
      : {};
  try {
    const url = urlFor(plan, input, baseUrl);
    const headers = new Headers();
    for (const parameter of plan.parameters.filter((p) => p.in === 'header')) {
      const value = argument(input, parameter);
      if (value === undefined) continue;
      const text = headerValue(parameter, value);
      if (UNSAFE_HEADER_VALUE.test(text)) {
        throw new ArgumentRefused(parameter.argName, 'a header value may not contain line breaks');
      }
      try {
        headers.set(parameter.name, text);
      } catch {
        // Headers are Latin-1 tokens; fetch refuses anything else (and a document's odd header name).
        throw new ArgumentRefused(parameter.argName, 'the value cannot be sent as an HTTP header');
      }
    }
    for (const [name, value] of Object.entries(configuredHeaders)) headers.set(name, value);
    headers.set('accept', 'application/json, text/plain;q=0.9, */*;q=0.5');
    const init: { method: string; headers: Headers; body?: string } = { method: plan.method, headers };
    const body = plan.body && Object.hasOwn(input, plan.body.argName) ? input[plan.body.argName] : undefined;
    if (plan.body && body !== undefined) {
      headers.set('content-type', plan.body.contentType);
      init.body = JSON.stringify(body);
    }
    return { ok: true, url, init };
  } catch (err) {
    if (err instanceof ArgumentRefused) return { ok: false, argName: err.argName, message: err.message };
    throw err;
  }
}

function urlFor(plan: OperationPlan, input: Record<string, unknown>, baseUrl: URL): URL {
  const path = plan.path.replace(/\{([^}]+)\}/g, (template, name: string) => {
    const parameter = plan.parameters.find((p) => p.in === 'path' && p.name === name);
    if (!parameter) return template;
    const value = argument(input, parameter);
    if (value === undefined) throw new ArgumentRefused(parameter.argName, 'a path parameter is required');
    const segment = pathValue(parameter, value);
    // encodeURIComponent leaves dots alone: `..` would climb out of the operation's path.
    if (segment === '' || segment === '.' || segment === '..') {
      throw new ArgumentRefused(parameter.argName, 'a path parameter may not be empty, "." or ".."');
    }
    return segment;
  });
  const basePath = baseUrl.pathname.replace(/\/+$/, '');
  const url = new URL(`${basePath}${path.startsWith('/') ? '' : '/'}${path}`, baseUrl.origin);
  if (
    url.origin !== baseUrl.origin ||
    (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`))
  ) {
    throw new ArgumentRefused(
      plan.parameters.find((p) => p.in === 'path')?.argName ?? '',
      'the request would leave the service',
    );
  }
  // The base URL's own query (an API key some services take there) is kept, and no argument may
  // add a second value for one of its names.
  for (const [name, value] of baseUrl.searchParams) url.searchParams.append(name, value);
  for (const parameter of plan.parameters.filter((p) => p.in === 'query')) {
    const value = argument(input, parameter);
    if (value === undefined) continue;
    const query = new URLSearchParams();
    appendQuery(query, parameter, value);
    for (const [name, text] of query) {
      if (baseUrl.searchParams.has(name)) {
        throw new ArgumentRefused(parameter.argName, `the query parameter "${name}" is set by the gateway`);
      }
      url.searchParams.append(name, text);
    }
  }
  return url;
}

function argument(input: Record<string, unknown>, parameter: OperationParameter): unknown {
  return Object.hasOwn(input, parameter.argName) ? input[parameter.argName] : undefined;
}

const scalar = (value: unknown): string =>
  value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);

/** Simple style (RFC 6570 `{id}`): arrays and objects comma-joined, each piece percent-encoded. */
function pathValue(parameter: OperationParameter, value: unknown): string {
  if (parameter.json) return encodeURIComponent(JSON.stringify(value));
  if (Array.isArray(value)) return value.map((item) => encodeURIComponent(scalar(item))).join(',');
  if (value !== null && typeof value === 'object') {
    const pairs = Object.entries(value).map(([k, v]) =>
      parameter.explode
        ? `${encodeURIComponent(k)}=${encodeURIComponent(scalar(v))}`
        : `${encodeURIComponent(k)},${encodeURIComponent(scalar(v))}`,
    );
    return pairs.join(',');
  }
  return encodeURIComponent(String(value));
}

/** Form style (the default, exploded), `deepObject`, and the delimited styles for arrays. */
function appendQuery(params: URLSearchParams, parameter: OperationParameter, value: unknown): void {
  if (parameter.json) return params.append(parameter.name, JSON.stringify(value));
  if (Array.isArray(value)) {
    if (parameter.explode) for (const item of value) params.append(parameter.name, scalar(item));
    else params.append(parameter.name, value.map(scalar).join(delimiter(parameter.style)));
    return;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (parameter.style === 'deepObject') {
      for (const [k, v] of entries) params.append(`${parameter.name}[${k}]`, scalar(v));
    } else if (parameter.explode) {
      for (const [k, v] of entries) params.append(k, scalar(v));
    } else {
      params.append(parameter.name, entries.flatMap(([k, v]) => [k, scalar(v)]).join(','));
    }
    return;
  }
  params.append(parameter.name, String(value));
}

function delimiter(style: string | undefined): string {
  if (style === 'spaceDelimited') return ' ';
  if (style === 'pipeDelimited') return '|';
  return ',';
}

function headerValue(parameter: OperationParameter, value: unknown): string {
  if (parameter.json) return JSON.stringify(value);
  if (Array.isArray(value)) return value.map(scalar).join(',');
  if (value !== null && typeof value === 'object') {
    return Object.entries(value)
      .map(([k, v]) => (parameter.explode ? `${k}=${scalar(v)}` : `${k},${scalar(v)}`))
      .join(',');
  }
  return String(value);
}
