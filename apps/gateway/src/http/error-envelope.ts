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

const bodyProblem = (message: string) => new InputRejectedError([{ kind: 'other', path: [], message }]);

/** Errors Fastify raises while reading a body, before any handler runs. */
function fromFastify(
  err: { code?: string; statusCode?: number; message?: string },
  bodyLimit: number,
): ToolgateError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ToolgateError(ErrorCode.PAYLOAD_TOO_LARGE, { params: { limitBytes: bodyLimit } });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return bodyProblem('the request body is not valid JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return bodyProblem('the request body is empty but Content-Type says JSON');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return bodyProblem('send the body as application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return bodyProblem('Content-Length does not match the body');
    default:
      break;
  }
  if (err.statusCode === 400 && /prototype|constructor/i.test(err.message ?? '')) {
    return bodyProblem('the body contains a forbidden __proto__ or constructor.prototype key');
  }
  if (err.statusCode === 400 && err instanceof SyntaxError)
    return bodyProblem('the request body is not valid JSON');
  return undefined;
}

function fromHttpException(err: HttpException, path: string): ToolgateError {
  const status = err.getStatus();
  if (status === 404) return new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: path } });
  if (status === 401) return new ToolgateError(ErrorCode.UNAUTHENTICATED);
  if (status === 403) return new ToolgateError(ErrorCode.FORBIDDEN);
  if (status === 413) return new ToolgateError(ErrorCode.PAYLOAD_TOO_LARGE, { params: { limitBytes: '?' } });
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
  else if (err instanceof HttpException) typed = fromHttpException(err, context.path);
  else if (err && typeof err === 'object')
    typed = fromFastify(err as Record<string, never>, context.bodyLimit);

  if (!typed || typed.code === ErrorCode.INTERNAL_ERROR) {
    logger.error(`unhandled error on ${context.path}`, (typed?.cause ?? err) as Error);
    return { status: 500, envelope: errorEnvelope(ErrorCode.INTERNAL_ERROR, locale) };
  }
  // 405 and 415 say more than the generic 400 of INVALID_INPUT; keep them.
  const original =
    err instanceof HttpException ? err.getStatus() : (err as { statusCode?: number }).statusCode;
  const status = original === 405 || original === 415 ? original : statusOfThrown(typed.code);
  return { status, envelope: typed.toEnvelope(locale), headers: typed.headers };
}
