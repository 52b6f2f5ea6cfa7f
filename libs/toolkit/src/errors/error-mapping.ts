import { MAX_ERROR_MESSAGE_LENGTH } from '../constants.js';
import type { ErrorEnvelope } from './envelope.js';
import { ErrorCode } from './error-codes.js';
import type { Locale } from './messages.js';
import { errorEnvelope, ToolCallFailedError, ToolError, ToolgateError } from './toolgate-error.js';

const DATA_STORE_FAILED: Record<Locale, string> = {
  'zh-CN': '数据存储访问失败',
  en: 'data store access failed',
};
const NO_MESSAGE: Record<Locale, string> = { 'zh-CN': '未知错误', en: 'unknown error' };

function looksLikeDatabaseError(err: object): boolean {
  const e = err as Record<string, unknown>;
  return 'sql' in e || 'sqlMessage' in e || 'sqlState' in e || e.name === 'QueryFailedError';
}

/**
 * A thrown message made fit for an envelope: first lines only (never a stack), credentials in URLs,
 * bearer tokens and secret-looking query parameters masked, length bounded.
 */
export function cleanErrorMessage(message: string, maxLength = MAX_ERROR_MESSAGE_LENGTH): string {
  const withoutStack = message
    .split('\n')
    .filter((line) => !/^\s+at\s/.test(line))
    .join(' ');
  const cleaned = withoutStack
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, '$1***@')
    .replace(/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi, '$1 ***')
    .replace(
      /([?&](?:token|access_token|api_key|apikey|key|secret|password|sig|signature)=)[^&\s]+/gi,
      '$1***',
    )
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length > maxLength ? `${cleaned.slice(0, maxLength - 1)}…` : cleaned;
}

/**
 * The envelope for anything a tool body threw. A `ToolError` keeps its code and advice; platform
 * errors keep their catalog code; everything else is `UPSTREAM_ERROR` with a clean message.
 */
export function envelopeForThrown(err: unknown, locale: Locale): ErrorEnvelope {
  if (err instanceof ToolError) {
    const env: ErrorEnvelope = {
      error: cleanErrorMessage(err.message),
      code: err.code,
      suggestedAction: err.suggestedAction,
    };
    if (err.details) env.details = err.details;
    return env;
  }
  if (err instanceof ToolCallFailedError) return err.envelope;
  if (err instanceof ToolgateError) return err.toEnvelope(locale);
  let message = NO_MESSAGE[locale];
  if (err && typeof err === 'object') {
    if (looksLikeDatabaseError(err)) message = DATA_STORE_FAILED[locale];
    else if (typeof (err as Error).message === 'string' && (err as Error).message)
      message = (err as Error).message;
  } else if (typeof err === 'string' && err) {
    message = err;
  }
  return errorEnvelope(ErrorCode.UPSTREAM_ERROR, locale, { message: cleanErrorMessage(message) });
}
