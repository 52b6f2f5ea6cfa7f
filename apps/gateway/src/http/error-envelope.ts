import { HttpException, Logger } from '@nestjs/common';
import { errorEnvelope, ErrorCode, ToolgateError, type ErrorEnvelope, type Locale } from '@toolgate/toolkit';
import { statusOfThrown } from './error-status.js';
import { InputRejectedError } from './input-rejected.error.js';

/** What the client gets for an error: never a stack trace, SQL or secret. */
export interface ErrorAnswer {
  readonly status: number;
  readonly envelope: ErrorEnvelope;
  readonly headers?: Readonly<Record<string, string>>;
}

const logger = new Logger('Errors');

// These say more than the generic 400 of INVALID_INPUT: method not allowed, request timeout, URI
// too long, unsupported media type, headers too large. Kept as they are.
const KEPT_STATUSES: ReadonlySet<number> = new Set([405, 408, 414, 415, 431]);

const bodyProblem = (message: string) => new InputRejectedError([{ kind: 'other', path: [], message }]);

/**
 * What a client reads for the errors Fastify and Node's HTTP parser raise before any handler runs
 * (reading the body, routing the URL, parsing the request), by error code.
 */
const REQUEST_PROBLEMS: ReadonlyMap<string, string> = new Map([
  ['FST_ERR_CTP_INVALID_JSON_BODY', 'the request body is not valid JSON'],
  ['FST_ERR_CTP_EMPTY_JSON_BODY', 'the request body is empty but Content-Type says JSON'],
  ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'send the body as application/json'],
  ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 'Content-Length does not match the body'],
  ['FST_ERR_BAD_URL', 'the URL is malformed (check its percent-encoding)'],
  ['FST_ERR_MAX_PARAM_LENGTH', 'a path segment of the URL is too long'],
  ['HPE_HEADER_OVERFLOW', 'the request headers are too large'],
  ['HPE_INVALID_EOF_STATE', 'the connection ended before the whole request arrived'],
  ['HPE_UNEXPECTED_CONTENT_LENGTH', 'send either Content-Length or Transfer-Encoding, not both'],
  ['HPE_INVALID_TRANSFER_ENCODING', 'the Transfer-Encoding is not supported'],
  ['HPE_INVALID_CHUNK_SIZE', 'the chunked body is malformed'],
  ['HPE_INVALID_METHOD', 'the HTTP method is not supported'],
  ['ERR_HTTP_REQUEST_TIMEOUT', 'the request did not arrive in time'],
]);

/** Errors Fastify raises before any handler runs, and requests Node's HTTP parser refuses. */
function fromFastify(
  err: { code?: string; statusCode?: number; message?: string },
  bodyLimit: number,
): ToolgateError | undefined {
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new ToolgateError(ErrorCode.PAYLOAD_TOO_LARGE, { params: { limitBytes: bodyLimit } });
  const known = err.code === undefined ? undefined : REQUEST_PROBLEMS.get(err.code);
  if (known) return bodyProblem(known);
  // Node's HTTP parser refused the request itself (framing, header syntax...).
  if (err.code?.startsWith('HPE_')) return bodyProblem('the request is not valid HTTP/1.1');
  if (err.statusCode === 400 && /prototype|constructor/i.test(err.message ?? '')) {
    return bodyProblem('the body contains a forbidden __proto__ or constructor.prototype key');
  }
  if (err.statusCode === 400 && err instanceof SyntaxError)
    return bodyProblem('the request body is not valid JSON');
  return undefined;
}

function fromHttpException(err: HttpException, path: string, bodyLimit: number): ToolgateError {
  const status = err.getStatus();
  if (status === 404) return new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: path } });
  if (status === 401) return new ToolgateError(ErrorCode.UNAUTHENTICATED);
  if (status === 403) return new ToolgateError(ErrorCode.FORBIDDEN);
  // On controller routes Nest's Fastify adapter wraps Fastify's errors, the body limit's too, in an
  // HttpException: the limit is the gateway's own setting, so the client reads it, not a placeholder.
  if (status === 413)
    return new ToolgateError(ErrorCode.PAYLOAD_TOO_LARGE, { params: { limitBytes: bodyLimit } });
  if (status === 415) return bodyProblem('send the body as application/json');
  if (status >= 400 && status < 500) return bodyProblem(err.message);
  return new ToolgateError(ErrorCode.INTERNAL_ERROR, { cause: err });
}

/**
 * Maps anything thrown while serving a request to the status and envelope of CONTRACT.md.
 * The one place errors become HTTP.
 */
export function answerForError(
  err: unknown,
  locale: Locale,
  context: { path: string; bodyLimit: number },
): ErrorAnswer {
  let typed: ToolgateError | undefined;
  if (err instanceof ToolgateError) typed = err;
  else if (err instanceof HttpException) typed = fromHttpException(err, context.path, context.bodyLimit);
  else if (err && typeof err === 'object')
    typed = fromFastify(err as Record<string, never>, context.bodyLimit);

  if (!typed || typed.code === ErrorCode.INTERNAL_ERROR) {
    logger.error(`unhandled error on ${context.path}`, (typed?.cause ?? err) as Error);
    return { status: 500, envelope: errorEnvelope(ErrorCode.INTERNAL_ERROR, locale) };
  }
  const original =
    err instanceof HttpException ? err.getStatus() : (err as { statusCode?: number }).statusCode;
  const status = original && KEPT_STATUSES.has(original) ? original : statusOfThrown(typed.code);
  return { status, envelope: typed.toEnvelope(locale), headers: typed.headers };
}
