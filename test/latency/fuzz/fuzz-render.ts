import { renderBody } from './fuzz-bodies.js';
import type { WireRequest } from './fuzz-http.js';
import { ParamChoice, type HeaderValue, type Part, type RequestSpec } from './fuzz-routes.js';
import { percentEncode } from './fuzz-text.js';
import { PoolRef, type FuzzWorld } from './fuzz-world.js';

/** A request ready for the wire, and what the checks and the harvest need to know about it. */
export interface RenderedRequest {
  readonly wire: WireRequest;
  /** The path as sent, without the query. */
  readonly path: string;
  readonly sse: boolean;
}

function part(p: Part, world: FuzzWorld, clean: boolean): string {
  if (p instanceof ParamChoice) return p.hostile && !clean ? p.hostileValue : part(p.valid, world, clean);
  if (p instanceof PoolRef) return percentEncode(world.value(p) ?? `missing-${p.pool}`);
  return p;
}

function header(value: HeaderValue, world: FuzzWorld): string {
  if (typeof value === 'string') return value;
  return value.map((v) => (typeof v === 'string' ? v : (world.key(v) ?? 'tg_missing'))).join('');
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Resolves the ids, keys and versions of a generated request against what the fuzzer knows now. */
export function renderRequest(spec: RequestSpec, world: FuzzWorld): RenderedRequest {
  const path = spec.target ?? `/${spec.path.map((p) => part(p, world, spec.clean)).join('/')}`;
  const query =
    typeof spec.query === 'string'
      ? spec.query
      : spec.query.map(([name, value]) => `${name}=${part(value, world, spec.clean)}`).join('&');
  const target = query ? `${path}?${query}` : path;
  const binding = /^\/v1\/admin\/tenants\/([^/]+)\/agents\/([^/]+)\/bindings$/.exec(path);
  const body = renderBody(
    spec.body,
    world,
    binding ? { tenantId: decoded(binding[1]!), agentType: decoded(binding[2]!) } : {},
  );
  const headers: [string, string][] = spec.headers.map(([name, value]) => [name, header(value, world)]);
  const type =
    spec.contentType === 'auto'
      ? body
        ? 'application/json'
        : undefined
      : spec.contentType === 'none'
        ? undefined
        : spec.contentType;
  if (type !== undefined) headers.push(['content-type', type]);
  const sse = headers.some(([name, value]) => name === 'accept' && value.includes('text/event-stream'));
  return {
    wire: { method: spec.method, target, headers, body, framing: spec.framing },
    path: path.split('?')[0]!,
    sse,
  };
}
