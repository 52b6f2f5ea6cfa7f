export { LOGIN_STATE_COOKIE, SECURE_SESSION_COOKIE, SESSION_COOKIE } from '@toolgate/auth';

/** The OIDC routes; the sign-in state cookie is sent to these only. */
export const OIDC_LOGIN_PATH_PREFIX = '/v1/auth/oidc';
export const OIDC_LOGIN_PATH = `${OIDC_LOGIN_PATH_PREFIX}/login`;

/** Where the browser lands after the callback (the console's own routes). */
export const CONSOLE_HOME = '/console/';
export const CONSOLE_NO_ACCESS = '/console/no-access';
/** The sign-in page with a short, fixed reason (never the IdP's text). */
export const consoleSignInError = (reason: 'refused' | 'idp_error' | 'unreachable' | 'roles_conflict') =>
  `/console/?signInError=${reason}`;
