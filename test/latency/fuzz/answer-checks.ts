import type { WireAnswer } from './fuzz-http.js';

/** What must never reach a client: stack traces, file paths, driver errors. */
const LEAKS: readonly RegExp[] = [
  /\n\s+at\s/,
  /node_modules/,
  /QueryFailedError/,
  /\bSQLITE_[A-Z]/,
  // MySQL/MariaDB error names (ER_DUP_ENTRY...), not words that merely contain "ER_" (USER_, HEADER_).
  /\bER_[A-Z_]+/,
  /\/work\//,
  // Files outside the console's root (a planted sentinel, the repository's package.json).
  /FUZZ-SENTINEL-OUTSIDE-ROOT/,
  /"name":\s*"toolgate"/,
];

const CODE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const INVOKE = /^\/v1\/agents\/[^/]+\/tools\/[^/]+\/invoke$/;
/** Routes that answer a run as SSE when asked (`Accept: text/event-stream`). */
/** The MCP endpoint (CONTRACT.md "MCP"): it answers JSON-RPC messages, not envelopes. */
const MCP = /^\/mcp\/[^/]*$/;
const RUN_STREAM = /^\/v1\/(agents\/[^/]+\/runs|runs\/[^/]+\/events)$/;
/** Registering an upstream tool source: the fuzzer names only destinations the egress policy refuses. */
const UPSTREAMS = /^\/v1\/admin\/tenants\/[^/]+\/upstreams$/;

/** The JSON-RPC error code of a refusal by a quota or a per-key cap (CONTRACT.md "Limits"). */
const RPC_RATE_LIMITED = -32029;

/** 5xx answers a client may see: the audit store or the key store is down (CONTRACT.md). */
const ALLOWED_5XX = new Map([[503, new Set(['AUDIT_UNAVAILABLE', 'NOT_READY'])]]);

/** The codes each error status may carry (CONTRACT.md "Codes and HTTP statuses"). */
const CODES_OF_STATUS: ReadonlyMap<number, ReadonlySet<string>> = new Map([
  [400, new Set(['INVALID_INPUT'])],
  [401, new Set(['UNAUTHENTICATED'])],
  [403, new Set(['FORBIDDEN'])],
  [404, new Set(['NOT_FOUND', 'TOOL_NOT_FOUND'])],
  [405, new Set(['INVALID_INPUT'])],
  [408, new Set(['INVALID_INPUT'])],
  [413, new Set(['PAYLOAD_TOO_LARGE'])],
  [414, new Set(['INVALID_INPUT'])],
  [415, new Set(['INVALID_INPUT'])],
  [429, new Set(['RATE_LIMITED', 'BUDGET_EXCEEDED'])],
  [431, new Set(['INVALID_INPUT'])],
]);

/** How a request was made, as far as the checks care. */
export interface AskedFor {
  readonly method: string;
  /** The path as sent, without the query. */
  readonly path: string;
  /** The request asked for server-sent events. */
  readonly sse: boolean;
  /** The server closed the connection before the whole body of this answer arrived: check the head only. */
  readonly bodyCut?: boolean;
}

/**
 * The content types a success of this path may have besides a JSON envelope, or undefined when
 * only the envelope will do. Swagger UI and the console are files; the rest are CONTRACT.md's.
 */
function otherSuccessTypes(asked: AskedFor): RegExp | undefined {
  const { path } = asked;
  if (path === '/metrics') return /^text\/plain/;
  if (path === '/docs' || path.startsWith('/docs/') || path.startsWith('/docs-')) return /./;
  if (path === '/console' || path.startsWith('/console/')) return /./;
  if (path === '/v1/audit/export') return /^(text\/csv|application\/x-ndjson)/;
  if (/^\/v1\/admin\/tenants\/[^/]+\/export$/.test(path)) return /^application\/yaml/;
  if (asked.sse && (INVOKE.test(path) || RUN_STREAM.test(path))) return /^text\/event-stream/;
  return undefined;
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

/** Problems of an error envelope (empty when it is one). */
function errorEnvelopeProblems(value: unknown): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return ['the body is not a JSON object'];
  const o = value as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof o.error !== 'string' || !o.error) problems.push('no string `error`');
  if (typeof o.code !== 'string' || !CODE.test(o.code))
    problems.push(`code ${JSON.stringify(o.code)} is not UPPER_SNAKE`);
  if (typeof o.suggestedAction !== 'string' || !o.suggestedAction)
    problems.push('no string `suggestedAction`');
  return problems;
}

function isSuccessEnvelope(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    (value as Record<string, unknown>).status === 'ok' &&
    'data' in value
  );
}

interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

function parseSse(body: Buffer): SseEvent[] {
  return body
    .toString('utf8')
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split('\n');
      const event = lines
        .find((l) => l.startsWith('event:'))
        ?.slice(6)
        .trim();
      const data = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      return { event, data };
    });
}

/** Problems of an invoke's event stream: it must end with one `result` event holding an envelope. */
function invokeStreamProblems(events: SseEvent[]): string[] {
  const last = events[events.length - 1];
  if (last?.event !== 'result')
    return [`the event stream does not end with a result event (${events.length} events)`];
  const parsed = parseJson(Buffer.from(last.data));
  if (!parsed.ok) return ['the result event does not hold JSON'];
  if (isSuccessEnvelope(parsed.value) || errorEnvelopeProblems(parsed.value).length === 0) return [];
  return ['the result event does not hold an envelope'];
}

/**
 * Problems of a run's event stream: every event holds a JSON run event of its own type, and the
 * stream ends when the run finishes or parks for a person (CONTRACT.md "Runs").
 */
function runStreamProblems(events: SseEvent[]): string[] {
  for (const { event, data } of events) {
    const parsed = parseJson(Buffer.from(data));
    if (!parsed.ok || (parsed.value as { type?: unknown } | null)?.type !== event)
      return [`the run event ${JSON.stringify(event)} does not hold a run event of its type`];
  }
  const last = events[events.length - 1]?.event;
  if (last !== 'run_finished' && last !== 'approval_requested')
    return [`the run's event stream ends with ${JSON.stringify(last)}, not run_finished or a parked run`];
  return [];
}

function sseProblems(asked: AskedFor, body: Buffer): string[] {
  const events = parseSse(body);
  return INVOKE.test(asked.path) ? invokeStreamProblems(events) : runStreamProblems(events);
}

/** Problems of the headers every answer must carry. */
function headerProblems(answer: WireAnswer): string[] {
  const problems: string[] = [];
  const id = answer.headers['x-request-id'];
  if (id === undefined) problems.push('no x-request-id header');
  else if (!REQUEST_ID.test(id))
    problems.push(`x-request-id ${JSON.stringify(id.slice(0, 200))} is not 1-128 of [A-Za-z0-9._:-]`);
  if (answer.headers['x-content-type-options'] !== 'nosniff')
    problems.push('no x-content-type-options: nosniff');
  if (answer.headers['x-frame-options'] !== 'DENY') problems.push('no x-frame-options: DENY');
  if (answer.headers['referrer-policy'] !== 'no-referrer') problems.push('no referrer-policy: no-referrer');
  return problems;
}

/** Problems of a 3xx: only the console redirects, and only within the gateway. */
function redirectProblems(asked: AskedFor, answer: WireAnswer): string[] {
  if (!asked.path.startsWith('/console') && !asked.path.startsWith('/docs'))
    return [`a ${answer.status} outside /console and /docs`];
  const location = answer.headers.location ?? '';
  if (!location.startsWith('/') || location.startsWith('//') || location.startsWith('/\\'))
    return [`redirects to ${JSON.stringify(location)}, outside the gateway`];
  return [];
}

function errorProblems(asked: AskedFor, answer: WireAnswer, type: string): string[] {
  const problems: string[] = [];
  if (!type.startsWith('application/json'))
    problems.push(`an error answered as ${JSON.stringify(type)}, not JSON`);
  // RFC 9110: a 405 lists the methods the path allows, and the refused one is not among them.
  if (answer.status === 405) {
    const allow = (answer.headers.allow ?? '').split(/,\s*/).filter(Boolean);
    if (allow.length === 0) problems.push('a 405 without Allow');
    else if (allow.includes(asked.method)) problems.push(`a 405 whose Allow lists ${asked.method}`);
  }
  if (asked.method === 'HEAD') return problems;
  const parsed = parseJson(answer.body);
  if (!parsed.ok) return [...problems, 'the error body is not JSON'];
  let body = parsed.value;
  // The MCP endpoint refuses in JSON-RPC, its envelope (when there is one) in `error.data`.
  if (MCP.test(asked.path) && (body as { jsonrpc?: unknown } | null)?.jsonrpc !== undefined) {
    const rpc = jsonRpcProblems(body, true);
    if (rpc.length) return [...problems, ...rpc];
    body = (body as { error: { data?: unknown } }).error.data;
    if (body === undefined) return problems;
  }
  const envelope = errorEnvelopeProblems(body);
  if (envelope.length) return [...problems, ...envelope];
  const code = (body as { code: string }).code;
  const allowed5xx = ALLOWED_5XX.get(answer.status);
  // A name that resolves nowhere is an unreachable upstream: 502 UPSTREAM_ERROR (CONTRACT.md).
  const unreachableUpstream =
    UPSTREAMS.test(asked.path) && answer.status === 502 && code === 'UPSTREAM_ERROR';
  if (answer.status >= 500 && !allowed5xx?.has(code) && !unreachableUpstream)
    problems.push(`a ${answer.status} (${code})`);
  const allowed = CODES_OF_STATUS.get(answer.status);
  if (allowed && !allowed.has(code)) problems.push(`status ${answer.status} with code ${code}`);
  if (answer.status === 429) problems.push(...retryAfterProblems(answer, body));
  return problems;
}

/**
 * A 429 says when to come back (CONTRACT.md "Limits"): `Retry-After` in whole seconds, the same
 * number as `details.retryAfterSeconds` — call quotas, the day's tokens, and the per-key caps.
 */
function retryAfterProblems(answer: WireAnswer, body: unknown): string[] {
  const header = answer.headers['retry-after'];
  if (header === undefined || !/^[1-9][0-9]*$/.test(header))
    return [`a 429 without a Retry-After of whole seconds (${JSON.stringify(header)})`];
  const inDetails = (body as { details?: { retryAfterSeconds?: unknown } }).details?.retryAfterSeconds;
  return inDetails === Number(header)
    ? []
    : [`a 429 whose Retry-After ${header} is not its details.retryAfterSeconds ${JSON.stringify(inDetails)}`];
}

/**
 * Problems of one JSON-RPC message the MCP endpoint sent: a result, or an error with an integer
 * code and a message; a refusal's `data` (any answer that is not 2xx) is the error envelope.
 */
function jsonRpcProblems(value: unknown, refusal: boolean): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return ['a JSON-RPC answer that is not an object'];
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return ['a JSON-RPC answer without jsonrpc "2.0"'];
  if ('result' in m && !refusal) return [];
  const e = m.error as Record<string, unknown> | null | undefined;
  if (!e || typeof e !== 'object' || !Number.isInteger(e.code) || typeof e.message !== 'string')
    return ['a JSON-RPC answer with neither a result nor a well-formed error'];
  if (e.code === RPC_RATE_LIMITED) return rpcRateLimitedProblems(e.data);
  if (e.data === undefined && !refusal) return [];
  return e.data === undefined ? [] : errorEnvelopeProblems(e.data).map((p) => `error.data: ${p}`);
}

/** An MCP refusal by a quota or a cap: the RATE_LIMITED envelope, with when to ask again. */
function rpcRateLimitedProblems(data: unknown): string[] {
  const envelope = errorEnvelopeProblems(data);
  if (envelope.length) return envelope.map((p) => `error.data of -32029: ${p}`);
  const d = data as { code: string; details?: { retryAfterSeconds?: unknown } };
  const seconds = d.details?.retryAfterSeconds;
  if (d.code !== 'RATE_LIMITED') return [`-32029 with code ${d.code}, not RATE_LIMITED`];
  return Number.isInteger(seconds) && (seconds as number) > 0
    ? []
    : [`-32029 without details.retryAfterSeconds (${JSON.stringify(seconds)})`];
}

/** Problems of a 2xx of the MCP endpoint: 202 without a body, or JSON-RPC as JSON or events. */
function mcpSuccessProblems(answer: WireAnswer, type: string): string[] {
  if (answer.status === 202) return answer.body.length ? ['a 202 of the MCP endpoint with a body'] : [];
  if (type.startsWith('text/event-stream')) {
    return parseSse(answer.body).flatMap(({ data }) => {
      const parsed = parseJson(Buffer.from(data));
      return parsed.ok ? jsonRpcProblems(parsed.value, false) : ['an MCP event that does not hold JSON'];
    });
  }
  if (!type.startsWith('application/json')) return [`an MCP answer as ${JSON.stringify(type)}`];
  const parsed = parseJson(answer.body);
  if (!parsed.ok) return ['the MCP answer is not JSON'];
  const messages = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  return messages.flatMap((m) => jsonRpcProblems(m, false));
}

function successProblems(asked: AskedFor, answer: WireAnswer, type: string): string[] {
  if (asked.method === 'POST' && UPSTREAMS.test(asked.path))
    return [`registered an upstream at a destination the egress policy refuses (${answer.status})`];
  if (asked.method === 'HEAD' || asked.bodyCut || answer.status === 204) return [];
  if (MCP.test(asked.path)) return mcpSuccessProblems(answer, type);
  const other = otherSuccessTypes(asked);
  const isJson = type.startsWith('application/json');
  if (other && !isJson) {
    if (!other.test(type)) return [`a ${answer.status} of ${asked.path} as ${JSON.stringify(type)}`];
    return type.startsWith('text/event-stream') ? sseProblems(asked, answer.body) : [];
  }
  // Swagger's own JSON (the OpenAPI document) is a file, not an API answer.
  if (other && /^\/docs/.test(asked.path)) return [];
  if (!isJson) return [`a ${answer.status} answered as ${JSON.stringify(type)}, not a JSON envelope`];
  const parsed = parseJson(answer.body);
  if (!parsed.ok) return ['the success body is not JSON'];
  if (isSuccessEnvelope(parsed.value) || errorEnvelopeProblems(parsed.value).length === 0) return [];
  return ['the success body is not an envelope'];
}

/**
 * Everything wrong with one answer, as readable sentences; empty when it keeps the contract: no
 * 5xx but 503 AUDIT_UNAVAILABLE / NOT_READY, errors as JSON envelopes with an UPPER_SNAKE code,
 * successes as envelopes unless the route serves a file, a stream or an export, the headers of
 * every answer, and nothing internal in any body.
 */
export function answerProblems(asked: AskedFor, answer: WireAnswer): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(answer.status) || answer.status < 200 || answer.status > 599)
    return [`status ${answer.status}`];
  problems.push(...headerProblems(answer));
  const text = answer.body.toString('utf8');
  for (const leak of LEAKS) if (leak.test(text)) problems.push(`the body matches ${leak}`);
  const type = answer.headers['content-type'] ?? '';
  if (answer.status >= 400) problems.push(...errorProblems(asked, answer, type));
  else if (answer.status >= 300) problems.push(...redirectProblems(asked, answer));
  else problems.push(...successProblems(asked, answer, type));
  return problems;
}
