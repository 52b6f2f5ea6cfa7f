import { cleanErrorMessage } from '@toolgate/toolkit';

/** Upstream messages longer than this are cut: enough to read the cause, short enough for an envelope. */
export const MAX_UPSTREAM_MESSAGE_LENGTH = 200;

/** How much of an upstream message is read, in multiples of what is kept. */
const REDACT_INPUT_FACTOR = 4;

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
 * Masks known secrets, then cleans the message the way the toolkit cleans every thrown message
 * (URLs, query strings, bearer/basic credentials, whitespace) and bounds its length. Upstreams
 * echo requests back in errors more often than one would hope. Reads at most a few times the
 * final length, whatever the upstream sent.
 */
export function redact(message: string, secrets: readonly string[]): string {
  const longest = secrets.reduce((max, s) => Math.max(max, s.length), 0);
  const limit = MAX_UPSTREAM_MESSAGE_LENGTH * REDACT_INPUT_FACTOR + longest;
  const cut = message.length > limit;
  let out = cut ? message.slice(0, limit) : message;
  for (const secret of secrets) out = out.split(secret).join('***');
  // Only the end of a cut text can hold part of a secret, and that part is shorter than the longest.
  if (cut) out = out.slice(0, out.length - longest);
  return cleanErrorMessage(out, MAX_UPSTREAM_MESSAGE_LENGTH);
}
