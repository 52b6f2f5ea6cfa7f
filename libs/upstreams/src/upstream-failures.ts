import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { mcpFailureOf } from './mcp/mcp-failures.js';
import type { UpstreamClient, UpstreamToolDefinition } from './sources/tool-source.js';

/**
 * A failure to talk to a source as an admin reads it: the source's own failures (OpenAPI) already
 * are ToolgateErrors; anything else says what happened and quotes nothing the source sent.
 */
export function sourceFailure(err: unknown): ToolgateError {
  if (err instanceof ToolgateError) return err;
  const { failure, message } = mcpFailureOf(err);
  if (failure === 'egress_denied' || failure === 'redirect') return refusedUrl(failure, message, 'url');
  return new ToolgateError(ErrorCode.UPSTREAM_ERROR, {
    params: { message: `the upstream cannot be used: ${message}` },
    details: { failure: failure === 'upstream_error' ? 'unreachable' : failure },
  });
}

/** The admin's URL refused by the egress policy (or answering a redirect): 400, naming the field. */
export function refusedUrl(failure: string, message: string, path: 'url' | 'baseUrl'): ToolgateError {
  const summary = `${path}: ${message}`;
  return new ToolgateError(ErrorCode.INVALID_INPUT, {
    params: { summary },
    details: { failure, issues: [{ path, message: summary }] },
  });
}

/** The source's live tools, or the failure as an admin reads it (`sourceFailure`). */
export async function listLive(
  client: UpstreamClient,
  signal?: AbortSignal,
): Promise<UpstreamToolDefinition[]> {
  try {
    return await client.listTools(signal);
  } catch (err) {
    throw sourceFailure(err);
  }
}

/** A request an admin sent that cannot be used: 400 INVALID_INPUT naming the field. */
export function invalidRequest(summary: string, path = ''): ToolgateError {
  return new ToolgateError(ErrorCode.INVALID_INPUT, {
    params: { summary },
    details: { issues: [{ path, message: summary }] },
  });
}

/** An upstream (or one of its tools) of that name is there already: 409 ALREADY_EXISTS. */
export function alreadyExists(what: string): ToolgateError {
  return new ToolgateError(ErrorCode.ALREADY_EXISTS, { params: { resource: `upstream ${what}` } });
}
