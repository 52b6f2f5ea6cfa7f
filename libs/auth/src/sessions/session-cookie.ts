/**
 * The session cookie. With `Secure` it takes the `__Host-` prefix, which browsers only accept
 * from a secure origin, for path `/` and without a Domain: no sibling subdomain can plant one.
 */
export const SESSION_COOKIE = 'tg_session';
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

/** The browser-bound `state` of a sign-in under way (login CSRF: the callback must come back to the same browser). */
export const LOGIN_STATE_COOKIE = 'tg_oidc_state';

/** The header a cookie-authenticated state-changing request must carry its CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

/** Cookie names and values are short; longer headers are not looked at (bounded work per request). */
const MAX_COOKIE_HEADER = 8_192;

/**
 * The value of cookie `name` in a `Cookie` header, or undefined. A linear scan over `; `-separated
 * pairs, no regular expression.
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header || header.length > MAX_COOKIE_HEADER) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    if (pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The session id a request's cookies carry, or undefined. In Secure mode only the `__Host-`
 * spelling counts: a plain `tg_session` can be set by a sibling subdomain or over plain http, so
 * accepting it would let an attacker fix a victim's session (fixation). Without Secure (loopback
 * http) browsers refuse `__Host-` cookies, so the plain one is read.
 */
export function sessionIdOf(cookieHeader: string | undefined, secure: boolean): string | undefined {
  return secure ? readCookie(cookieHeader, SECURE_SESSION_COOKIE) : readCookie(cookieHeader, SESSION_COOKIE);
}
