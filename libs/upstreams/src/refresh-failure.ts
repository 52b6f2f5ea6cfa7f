import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { cleanErrorMessage, ToolgateError } from '@toolgate/toolkit';
import { OpenApiSourceError } from './openapi/openapi-source-error.js';

/**
 * Why a refresh failed, fit for the log: the kind of failure with its HTTP status, JSON-RPC code or
 * network code, never text the upstream chose. An MCP SDK error quotes the body it received (an
 * error page, or a body echoing `db_password=…`), and a JSON parser quotes the text it choked on.
 * @example refreshFailureOf(new StreamableHTTPError(500, 'Error POSTing to endpoint: <html>…')) // 'the server answered HTTP 500'
 */
export function refreshFailureOf(err: unknown): string {
  if (err instanceof StreamableHTTPError)
    return (err.code ?? 0) > 0 ? `the server answered HTTP ${err.code}` : 'the server did not answer as MCP';
  if (err instanceof McpError) return `the server answered JSON-RPC error ${err.code}`;
  if (err instanceof OpenApiSourceError) return `the OpenAPI document is ${err.failure}`;
  if (err instanceof ToolgateError) {
    const failure = err.details?.failure;
    if (typeof failure === 'string') return `${err.code} (${failure})`;
    // The gateway's own words (a secret variable not set, a kind not built in).
    const message = err.params.message ?? err.params.summary;
    return typeof message === 'string' ? `${err.code}: ${cleanErrorMessage(message, 200)}` : err.code;
  }
  if (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError')) return 'timed out';
  const code =
    (err as { cause?: { code?: unknown } } | undefined)?.cause?.code ?? (err as { code?: unknown })?.code;
  const name = err instanceof Error ? err.name : typeof err;
  return typeof code === 'string' || typeof code === 'number' ? `${name} (${code})` : name;
}
