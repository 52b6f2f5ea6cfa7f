import { cleanErrorMessage } from '@toolgate/toolkit';

/** Upstream messages longer than this are cut: enough to read the cause, short enough for an envelope. */
export const MAX_UPSTREAM_MESSAGE_LENGTH = 200;

/** Secrets shorter than this are not masked: masking `"1"` everywhere would garble messages. */
const MIN_SECRET_LENGTH = 4;

/**
 * Every form in which a header value could be echoed back: the whole value and, for
 * `Bearer x` / `Basic x`, the credential part alone.
 */
export function secretFormsOf(values: Iterable<string>): string[] {
  const forms = new Set<string>();
  for (const value of values) {
    forms.add(value);
    const space = value.indexOf(' ');
    if (space > 0) forms.add(value.slice(space + 1));
  }
  return [...forms].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/**
 * Masks known secrets and URL queries, then cleans the message the way the toolkit cleans every
 * thrown message (bearer/basic credentials, URL userinfo, whitespace) and bounds its length.
 * Upstreams echo requests back in errors more often than one would hope.
 */
export function redact(message: string, secrets: readonly string[]): string {
  let out = message;
  for (const secret of secrets) out = out.split(secret).join('***');
  // A query, with or without the URL in front of it: `/path?a=1`, `?token=x&user=y`.
  out = out.replace(/\?[^\s?=&]+=\S*/g, '?***');
  return cleanErrorMessage(out, MAX_UPSTREAM_MESSAGE_LENGTH);
}
