import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import * as client from 'openid-client';
import type { PersonIdentity } from '../principal.js';
import { OidcLoginEntity } from '../sessions/oidc-login.entity.js';
import { SessionRepository } from '../sessions/session.repository.js';
import { SessionService, type StartedSession } from '../sessions/session.service.js';
import { SignInAudit, type SignInSource } from '../sessions/sign-in-audit.js';
import { isSeparatedRole } from '@toolgate/contract';
import { ApiKeyRepository } from '../api-key.repository.js';
import { rolesConflict, SeparatedDuties } from '../separated-duties.js';
import { mapClaimsToRole, separatedRolesOf, type MappedRole } from './claim-mapping.js';
import { OIDC_LOGIN_TTL_MS, OIDC_OPTIONS, secureCookiesOf, type OidcOptions } from './oidc.options.js';

export { OIDC_OPTIONS } from './oidc.options.js';

/** The provider id people signed in here are scoped by: principal ids are `oidc:<sub>`. */
export const OIDC_PROVIDER_ID = 'oidc';

/** What the callback ended in: a session, or a person the configuration gives no access. */
export type SignInResult =
  | { readonly kind: 'signed_in'; readonly session: StartedSession; readonly person: PersonIdentity }
  | { readonly kind: 'no_access'; readonly person: PersonIdentity };

/** What a refused sign-in is told to wait, in seconds (started sign-ins finish or expire meanwhile). */
const LOGIN_RETRY_AFTER_S = 60;

/** The longest subject whose principal id (`oidc:<sub>`) fits the 64-character id columns. */
const MAX_SUBJECT_LENGTH = 64 - `${OIDC_PROVIDER_ID}:`.length;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const refused = (reason: string, cause?: unknown) =>
  new ToolgateError(ErrorCode.UNAUTHENTICATED, { details: { reason }, cause });

/** What a refusal's envelope tells the person, for the record. */
const refusalReason = (err: ToolgateError): string =>
  String((err.details as { reason?: unknown } | undefined)?.reason ?? err.code);

/** A claim as a bounded string, or undefined. */
const stringClaim = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value.slice(0, max) : undefined;

/**
 * Sign-in through the configured OpenID provider with the authorization code flow and PKCE
 * (openid-client). The provider's metadata is discovered on first use, so the gateway boots while
 * the IdP is down. Claims map to a role and tenant by configuration; unmapped people get none.
 */
@Injectable()
export class OidcSignInService {
  private readonly logger = new Logger(OidcSignInService.name);
  private configuration?: Promise<client.Configuration>;

  constructor(
    private readonly logins: SessionRepository,
    private readonly sessions: SessionService,
    private readonly audit: SignInAudit,
    private readonly duties: SeparatedDuties,
    private readonly keys: ApiKeyRepository,
    @Optional() @Inject(OIDC_OPTIONS) private readonly options?: OidcOptions,
  ) {}

  /** The sign-in button's label, or null when no IdP is configured. */
  get displayName(): string | null {
    return this.options?.displayName ?? null;
  }

  /** Cookies are `Secure` unless the gateway is reached over plain http (loopback only, checked at boot). */
  get secureCookies(): boolean {
    return secureCookiesOf(this.settings());
  }

  /** The URL the IdP redirected the browser to: the configured redirect URL with the IdP's query. */
  callbackUrl(query: string): URL {
    const url = new URL(this.settings().redirectUrl);
    url.search = query;
    return url;
  }

  /**
   * Starts a sign-in: the IdP's authorization URL and the state the browser must bring back.
   * Anyone may start one, so each is a row that expires, expired rows go first, and past
   * `maxPendingLogins` under way a new one is refused (RATE_LIMITED) rather than stored.
   */
  async begin(): Promise<{ authorizationUrl: string; state: string }> {
    const config = await this.discover();
    if ((await this.logins.pendingLogins(new Date())) >= this.settings().maxPendingLogins) {
      this.logger.warn(`refused a sign-in: ${this.settings().maxPendingLogins} sign-ins are under way`);
      throw new ToolgateError(ErrorCode.RATE_LIMITED, {
        params: { quota: 'too many sign-ins under way' },
        details: { reason: 'too many sign-ins are under way; try again shortly' },
        headers: { 'retry-after': String(LOGIN_RETRY_AFTER_S) },
      });
    }
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    await this.logins.insertLogin(
      Object.assign(new OidcLoginEntity(), {
        stateHash: sha256(state),
        codeVerifier,
        nonce,
        expiresAt: new Date(Date.now() + OIDC_LOGIN_TTL_MS),
      }),
    );
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.settings().redirectUrl,
      scope: this.settings().scopes.join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { authorizationUrl: url.href, state };
  }

  /**
   * Finishes a sign-in from the IdP's redirect. Refuses (UNAUTHENTICATED) a state the browser did
   * not start, an unknown, used or expired state, and any failure of the code exchange or of the
   * ID token's checks (issuer, audience, signature, nonce) that openid-client makes. A sign-in, and
   * the refusal of one this gateway started, is an audit event before the browser learns of it.
   */
  async complete(
    callbackUrl: URL,
    browserState: string | undefined,
    source: SignInSource = {},
  ): Promise<SignInResult> {
    const options = this.settings();
    const state = callbackUrl.searchParams.get('state');
    if (!state || state !== browserState) throw refused('the sign-in did not start in this browser');
    const login = await this.logins.takeLogin(sha256(state), new Date());
    if (!login) throw refused('the sign-in is unknown, used already or expired; sign in again');
    let person: PersonIdentity | undefined;
    try {
      const config = await this.discover();
      const claims = await this.exchange(config, callbackUrl, login);
      const subject = typeof claims.sub === 'string' ? claims.sub : '';
      // Principal ids are stored in 64-character columns (approvals, audit): `oidc:` + the subject.
      if (!subject || subject.length > MAX_SUBJECT_LENGTH)
        throw refused(
          `the identity token's subject is missing or longer than ${MAX_SUBJECT_LENGTH} characters`,
        );
      person = {
        provider: OIDC_PROVIDER_ID,
        subject,
        ...(stringClaim(claims.name, 200) ? { name: stringClaim(claims.name, 200) } : {}),
        ...(stringClaim(claims.email, 320) ? { email: stringClaim(claims.email, 320) } : {}),
      };
      const access = mapClaimsToRole(claims, options.rules);
      if (!access) {
        await this.audit.signInFailed('no_access', OIDC_PROVIDER_ID, source, person);
        return { kind: 'no_access', person };
      }
      const conflict = await this.separationConflict(person, claims, access);
      if (conflict) {
        await this.audit.signInFailed('roles_conflict', OIDC_PROVIDER_ID, source, person);
        throw conflict;
      }
      await this.audit.signedIn(person, access, source);
      const session = await this.sessions.start(person, access, options.sessionTtlMs);
      return { kind: 'signed_in', session, person };
    } catch (err) {
      if (err instanceof ToolgateError && err.code === ErrorCode.UNAUTHENTICATED)
        await this.audit.signInFailed(refusalReason(err), OIDC_PROVIDER_ID, source, person);
      throw err;
    }
  }

  /**
   * Under the profile, a person is one separated administrator at most (ADR 039): refused
   * (ROLES_CONFLICT) when the rules give it two, or when it signs in as one while answering for a
   * key of another. Null when the sign-in may go on.
   */
  private async separationConflict(
    person: PersonIdentity,
    claims: Readonly<Record<string, unknown>>,
    access: MappedRole,
  ): Promise<ToolgateError | null> {
    if (!this.duties.on) return null;
    const id = `${person.provider}:${person.subject}`;
    const fromRules = separatedRolesOf(claims, this.settings().rules);
    if (fromRules.length > 1) return rolesConflict(id, fromRules[1]!, fromRules[0]!);
    if (!isSeparatedRole(access.role)) return null;
    const held = (await this.keys.activeRolesOwnedBy(id)).find(
      (r) => isSeparatedRole(r) && r !== access.role,
    );
    return held ? rolesConflict(id, access.role, held) : null;
  }

  /** The code exchange, then the ID token's claims with the userinfo endpoint's added (groups often live there). */
  private async exchange(
    config: client.Configuration,
    callbackUrl: URL,
    login: OidcLoginEntity,
  ): Promise<Record<string, unknown>> {
    try {
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: login.codeVerifier,
        expectedState: callbackUrl.searchParams.get('state') ?? undefined,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('no ID token');
      if (!config.serverMetadata().userinfo_endpoint) return { ...idClaims };
      const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      // The ID token's signed claims win over userinfo's where both speak.
      return { ...info, ...idClaims };
    } catch (err) {
      this.logger.warn(`an OIDC sign-in was refused: ${(err as Error).message}`);
      throw refused('the identity provider did not confirm the sign-in', err);
    }
  }

  private settings(): OidcOptions {
    if (!this.options) throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: 'OIDC sign-in' } });
    return this.options;
  }

  private discover(): Promise<client.Configuration> {
    const o = this.settings();
    this.configuration ??= client
      .discovery(
        new URL(o.issuer),
        o.clientId,
        undefined,
        o.clientSecret ? client.ClientSecretBasic(o.clientSecret) : client.None(),
        o.allowInsecureIssuer ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((err: unknown) => {
        // The next sign-in tries again rather than remembering an IdP that was down.
        this.configuration = undefined;
        this.logger.warn(`OIDC discovery of ${o.issuer} failed: ${(err as Error).message}`);
        throw new ToolgateError(ErrorCode.NOT_READY, {
          params: { reason: 'the identity provider is unreachable' },
          cause: err,
        });
      });
    return this.configuration;
  }
}
