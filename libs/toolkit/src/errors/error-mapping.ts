import { MAX_ERROR_MESSAGE_LENGTH } from '../constants.js';
import type { ErrorEnvelope } from './envelope.js';
import { ErrorCode } from './error-codes.js';
import type { Locale } from './messages.js';
import { maskSecretAssignments } from './secret-assignments.js';
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
 * Messages are cut to this many times their final length before any pattern reads them, so a
 * thrown megabyte costs no more than a thrown kilobyte.
 */
const CLEAN_INPUT_FACTOR = 4;

// Each pattern below is linear: anchored, or a literal alternation followed by character runs
// that cannot overlap what comes before them; and none sees more than the bounded input.
const STACK_LINE = /^\s+at\s/;
const CREDENTIAL = /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi;
const WHITESPACE_RUN = /\s+/g;

/** What ends a URL in prose: whitespace, quotes and angle brackets. */
const URL_STOPS = new Set([...' \t\n\r\f\v"\'`<>\u00a0\u3000']);
/** Trailing punctuation that belongs to the sentence, not to the URL. */
const URL_TRAILERS = new Set([...'.,;:!?)]}']);

function isSchemeChar(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || '+.-'.includes(c);
}

function isLetter(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/** The first `limit` characters, without a last word the cut may have halved (a token, a URL). */
function boundedInput(message: string, limit: number): string {
  if (message.length <= limit) return message;
  const cut = message.slice(0, limit);
  const lastSpace = Math.max(cut.lastIndexOf(' '), cut.lastIndexOf('\n'), cut.lastIndexOf('\t'));
  return lastSpace > 0 ? cut.slice(0, lastSpace) : cut;
}

/** Where the scheme before the `://` at `sep` starts (a letter), or `sep` when there is none. */
function schemeStart(text: string, sep: number, floor: number): number {
  let start = sep;
  while (start > floor && isSchemeChar(text[start - 1]!)) start--;
  while (start < sep && !isLetter(text[start]!)) start++;
  return start;
}

function urlEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && !URL_STOPS.has(text[end]!)) end++;
  while (end > from && URL_TRAILERS.has(text[end - 1]!)) end--;
  return end;
}

/**
 * Every `scheme://…` becomes `[url]`: userinfo, host, path and query may all carry secrets (a
 * secret put in a connector's base URL path came back in errors). Each `://` is looked at once
 * and the scans never cross one another, so this is linear where `\b[a-z][a-z0-9+.-]*:\/\/` is not.
 */
function replaceUrls(text: string): string {
  let out = '';
  let copied = 0;
  for (let sep = text.indexOf('://'); sep !== -1; sep = text.indexOf('://', Math.max(sep + 3, copied))) {
    const start = schemeStart(text, sep, copied);
    if (start === sep) continue;
    const end = urlEnd(text, sep + 3);
    out += `${text.slice(copied, start)}[url]`;
    copied = end;
  }
  return out + text.slice(copied);
}

function isQueryName(c: string): boolean {
  return c !== '=' && c !== '&' && c !== '?' && !URL_STOPS.has(c);
}

/** `?name=…` up to the next space becomes `?***`: a query string, with or without its URL. */
function stripQueries(text: string): string {
  let out = '';
  let copied = 0;
  for (let q = text.indexOf('?'); q !== -1; q = text.indexOf('?', Math.max(q + 1, copied))) {
    let i = q + 1;
    while (i < text.length && isQueryName(text[i]!)) i++;
    if (i === q + 1 || text[i] !== '=') continue;
    while (i < text.length && !URL_STOPS.has(text[i]!)) i++;
    out += `${text.slice(copied, q)}?***`;
    copied = i;
  }
  return out + text.slice(copied);
}

/**
 * A thrown message made fit for an envelope: first lines only (never a stack), URLs replaced by
 * `[url]`, query strings, bearer/basic credentials and secret-looking assignments (`password=…`,
 * `"token": "…"`, wherever they stand) masked, length
 * bounded. Linear in the message's length, and reads at most a few times `maxLength` of it.
 * @example cleanErrorMessage('GET https://u:p@host/x?token=1 failed') // 'GET [url] failed'
 */
export function cleanErrorMessage(message: string, maxLength = MAX_ERROR_MESSAGE_LENGTH): string {
  const bounded = boundedInput(message, maxLength * CLEAN_INPUT_FACTOR);
  const withoutStack = bounded
    .split('\n')
    .filter((line) => !STACK_LINE.test(line))
    .join(' ');
  const cleaned = maskSecretAssignments(stripQueries(replaceUrls(withoutStack)))
    .replace(CREDENTIAL, '$1 ***')
    .replace(WHITESPACE_RUN, ' ')
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
