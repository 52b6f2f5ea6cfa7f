import type { Role } from '../roles.js';

/**
 * One claim → role rule. The first rule that matches a person decides its role and tenant, so list
 * the narrowest (platform admins) first. A claim may be a string or a list of strings (`groups`).
 */
export interface ClaimRoleRule {
  /** The claim to look at: `groups`, `email`, `roles`, … (top-level claims only). */
  readonly claim: string;
  /** Matches when the claim (a string) equals this, or (a list) contains it. */
  readonly equals: string;
  readonly role: Role;
  /** The tenant the role is of; absent for platform-wide roles (platform_admin, auditor). */
  readonly tenantId?: string;
}

/** Sign-in through the company's OpenID Connect provider (auth code + PKCE). */
export interface OidcOptions {
  /** What the sign-in button says: "Sign in with <displayName>". */
  readonly displayName: string;
  readonly issuer: string;
  readonly clientId: string;
  /** From the environment (never the file); absent for a public client (PKCE only). */
  readonly clientSecret?: string;
  readonly scopes: readonly string[];
  /** This gateway's `/v1/auth/oidc/callback` as the IdP knows it. */
  readonly redirectUrl: string;
  readonly rules: readonly ClaimRoleRule[];
  /** A browser session ends this long after sign-in (absolute, not sliding). */
  readonly sessionTtlMs: number;
  /**
   * Sign-ins under way (started, not yet back from the IdP) kept at most: anyone may start one, so
   * past this a new one is refused (429) until started ones finish or expire.
   */
  readonly maxPendingLogins: number;
  /** Plain-http issuers, for an IdP on loopback (tests, a laptop); never in production. */
  readonly allowInsecureIssuer: boolean;
}

/** The injection token of the `auth.oidc` settings (absent: no IdP configured). */
export const OIDC_OPTIONS = Symbol('OIDC_OPTIONS');

/**
 * Secure mode: the gateway is reached over https (its redirect URL says so), so cookies are
 * `Secure` and the session cookie is `__Host-` prefixed. Plain http is for loopback only.
 */
export function secureCookiesOf(options: Pick<OidcOptions, 'redirectUrl'> | undefined): boolean {
  return options?.redirectUrl.startsWith('https:') ?? false;
}

/** The defaults of the `auth.oidc` section. */
export const DEFAULT_OIDC_OPTIONS = {
  displayName: 'SSO',
  scopes: ['openid', 'profile', 'email'],
  sessionTtlMs: 8 * 60 * 60 * 1000,
  maxPendingLogins: 10_000,
} as const;

/** How long a started sign-in (state, nonce, PKCE verifier) may take before it is refused. */
export const OIDC_LOGIN_TTL_MS = 10 * 60 * 1000;

/** Expired sessions and abandoned sign-ins are deleted this often (and before each sign-in starts). */
export const SESSION_SWEEP_INTERVAL_MS = 60 * 1000;
