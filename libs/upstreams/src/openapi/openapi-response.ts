import type { UpstreamCallOutcome } from '../sources/tool-source.js';
import { MAX_ANSWER_BYTES, readBoundedBody } from '@toolgate/egress';
import { ERROR_EXCERPT_CHARS } from './openapi-limits.js';
import { isJsonMediaType } from './media-types.js';
import { upstreamError } from './upstream-outcomes.js';

/** How much of an error answer is read to quote from (the rest is discarded unread). */
const ERROR_BODY_BYTES = 16 * 1024;

/**
 * A service's answer as an outcome: a 2xx JSON object is the data, other JSON is `{ value }`, text
 * is `{ text }`, nothing is `{}`; any other status is UPSTREAM_ERROR quoting the status and the
 * start of the body, with the configured header values masked in case the service echoes them.
 */
export async function readAnswer(
  response: Response,
  secrets: readonly string[],
): Promise<UpstreamCallOutcome> {
  if (response.status < 200 || response.status > 299) {
    const body = await readBoundedBody(response, ERROR_BODY_BYTES);
    const text = body.ok ? body.bytes.toString('utf8') : '';
    const excerpt = mask(text.replace(/\s+/g, ' ').trim(), secrets).slice(0, ERROR_EXCERPT_CHARS);
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    return upstreamError(excerpt ? `${status}: ${excerpt}` : status, { status: response.status });
  }
  const body = await readBoundedBody(response, MAX_ANSWER_BYTES);
  if (!body.ok)
    return upstreamError(`the answer is too large (more than ${MAX_ANSWER_BYTES} bytes)`, {
      failure: 'too_large',
    });
  const text = body.bytes.toString('utf8');
  if (text.trim() === '') return { ok: true, data: {} };
  if (!isJsonMediaType(response.headers.get('content-type'))) return { ok: true, data: { text } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return upstreamError('the service answered malformed JSON');
  }
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  return { ok: true, data: isObject ? value : { value } };
}

function mask(text: string, secrets: readonly string[]): string {
  let out = text;
  // Short values (a "1" flag) would mask ordinary text; credentials are longer.
  for (const secret of secrets) if (secret.length >= 6) out = out.split(secret).join('***');
  return out;
}
