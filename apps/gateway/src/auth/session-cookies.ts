import {
  LOGIN_STATE_COOKIE,
  OIDC_LOGIN_PATH_PREFIX,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
} from './oidc-paths.js';

/** One `Set-Cookie` value: httpOnly, SameSite=Lax (the IdP's redirect back is a top-level GET). */
function cookie(name: string, value: string, path: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${name}=${value}`,
    `Path=${path}`,
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** The session cookie (`__Host-` prefixed when Secure), valid until the session expires. */
export function sessionCookie(sessionId: string, expiresAt: Date, secure: boolean): string {
  const maxAge = (expiresAt.getTime() - Date.now()) / 1000;
  return cookie(secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, sessionId, '/', maxAge, secure);
}

/** Clears both spellings of the session cookie. */
export function clearedSessionCookies(secure: boolean): string[] {
  return [
    cookie(SESSION_COOKIE, '', '/', 0, secure),
    ...(secure ? [cookie(SECURE_SESSION_COOKIE, '', '/', 0, true)] : []),
  ];
}

/** Binds a sign-in to the browser that started it; sent only to the OIDC routes. */
export function loginStateCookie(state: string, maxAgeSeconds: number, secure: boolean): string {
  return cookie(LOGIN_STATE_COOKIE, state, OIDC_LOGIN_PATH_PREFIX, maxAgeSeconds, secure);
}

export function clearedLoginStateCookie(secure: boolean): string {
  return cookie(LOGIN_STATE_COOKIE, '', OIDC_LOGIN_PATH_PREFIX, 0, secure);
}
