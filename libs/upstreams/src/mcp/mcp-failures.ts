import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode as McpErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { egressErrorOf } from '@toolgate/egress';

/**
 * JSON-RPC code of the error the gateway puts in place of an answer past its bound (in the range
 * JSON-RPC leaves to implementations, -32000 to -32099).
 */
export const ANSWER_TOO_LARGE_CODE = -32099;

/** Why talking to an upstream MCP server failed; `upstream_error` is the server's own JSON-RPC error. */
export type McpFailure = 'egress_denied' | 'redirect' | 'too_large' | 'unreachable' | 'upstream_error';

/**
 * What went wrong talking to an upstream MCP server, in words that quote nothing it sent: no
 * body, no error text of the server, no address it resolved to.
 */
export function mcpFailureOf(err: unknown): { failure: McpFailure; message: string } {
  const egress = egressErrorOf(err);
  if (egress) {
    if (egress.failure === 'unresolvable') return { failure: 'unreachable', message: egress.message };
    const failure = egress.failure === 'scheme' ? 'egress_denied' : egress.failure;
    return { failure, message: egress.message };
  }
  if (err instanceof McpError) {
    if (err.code === ANSWER_TOO_LARGE_CODE) return { failure: 'too_large', message: tooLargeMessage(err) };
    if (err.code === McpErrorCode.RequestTimeout)
      return { failure: 'unreachable', message: 'the server did not answer in time' };
    if (err.code === McpErrorCode.ConnectionClosed)
      return { failure: 'unreachable', message: 'the connection to the server closed' };
    return { failure: 'upstream_error', message: `the server answered JSON-RPC error ${err.code}` };
  }
  if (err instanceof StreamableHTTPError)
    return {
      failure: 'unreachable',
      message:
        (err.code ?? 0) > 0
          ? `the server answered HTTP ${err.code}`
          : 'the server did not answer as an MCP server',
    };
  const code = (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  if (typeof code === 'string' && /^[A-Z_]{2,32}$/.test(code))
    return { failure: 'unreachable', message: `the server cannot be reached (${code})` };
  return { failure: 'unreachable', message: 'the server did not answer as an MCP server' };
}

/** "the answer is too large (…)": our own message, after the SDK's `MCP error -32099: ` prefix. */
function tooLargeMessage(err: McpError): string {
  return `the answer is too large (${err.message.slice(err.message.indexOf(':') + 1).trim()})`;
}
