/** The kinds of ids the fuzzer learns from answers (FuzzWorld's pools). */
export type FindingPool =
  'tenantId' | 'agentType' | 'toolName' | 'approvalId' | 'callId' | 'keyId' | 'eventId' | 'cursor' | 'yaml';

/** One thing an answer revealed. Plain data: it crosses from the client's worker thread. */
export type Finding =
  | { readonly kind: 'id'; readonly pool: FindingPool; readonly value: string }
  | { readonly kind: 'key'; readonly role: string; readonly secret: string; readonly id: string }
  | {
      readonly kind: 'version';
      readonly tenantId: string;
      readonly agentType: string;
      readonly version: number;
    }
  | { readonly kind: 'revoked'; readonly id: string };

/** How many nodes of an answer's JSON are looked at, at most. */
const WALK_BUDGET = 5_000;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * What an answer reveals: ids, cursors, keys (with their role), binding versions, tenant files,
 * revocations. `path` is the request path as sent (no query), for answers that name their tenant
 * only there. Pure, so it can run where the answer was received.
 */
export function findingsOf(
  method: string,
  path: string,
  contentType: string,
  body: Uint8Array,
  callId: string | undefined,
): Finding[] {
  const found: Finding[] = [];
  if (callId) found.push({ kind: 'id', pool: 'callId', value: callId });
  const revoked = method === 'DELETE' ? /^\/v1\/admin\/keys\/([^/]+)$/.exec(path)?.[1] : undefined;
  if (revoked) found.push({ kind: 'revoked', id: safeDecode(revoked) });
  const text = () => Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  if (/^\/v1\/admin\/tenants\/[^/]+\/export$/.test(path) && contentType.includes('yaml')) {
    found.push({ kind: 'id', pool: 'yaml', value: text() });
    return found;
  }
  if (!contentType.includes('application/json') || body.byteLength > 2_000_000) return found;
  let json: unknown;
  try {
    json = JSON.parse(text());
  } catch {
    return found;
  }
  const tenant = safeDecode(/^\/v1\/admin\/tenants\/([^/]+)\//.exec(path)?.[1] ?? '') || undefined;
  walk(json, { path, tenant, found, left: WALK_BUDGET }, 0);
  return found;
}

interface Walk {
  readonly path: string;
  readonly tenant: string | undefined;
  readonly found: Finding[];
  left: number;
}

function walk(node: unknown, w: Walk, depth: number): void {
  if (depth > 8 || --w.left < 0 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) walk(item, w, depth + 1);
    return;
  }
  const o = node as Record<string, unknown>;
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
  const id = (pool: FindingPool, value: string | undefined) => {
    if (value) w.found.push({ kind: 'id', pool, value });
  };
  id('approvalId', str('approvalId'));
  id('callId', str('callId'));
  id('cursor', str('nextCursor'));
  id('tenantId', str('tenantId'));
  const own = str('id');
  if (own?.startsWith('key_')) id('keyId', own);
  else if (own?.startsWith('apr_')) id('approvalId', own);
  else if (w.path === '/v1/admin/tenants') id('tenantId', own);
  else if (w.path.startsWith('/v1/audit/')) id('eventId', own);
  const secret = str('key');
  const role = str('role');
  if (secret?.startsWith('tg_') && role && own) w.found.push({ kind: 'key', role, secret, id: own });
  const agentType = str('agentType');
  // Current versions only: the history lists old ones under the same names.
  if (agentType && w.tenant && typeof o.version === 'number' && w.path.endsWith('/bindings')) {
    w.found.push({ kind: 'version', tenantId: w.tenant, agentType, version: o.version });
    id('agentType', agentType);
  }
  for (const value of Object.values(o)) walk(value, w, depth + 1);
}
