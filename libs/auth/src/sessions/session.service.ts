import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { personPrincipal, type PersonIdentity, type Principal } from '../principal.js';
import type { Role } from '../roles.js';
import { OIDC_OPTIONS, secureCookiesOf, type OidcOptions } from '../oidc/oidc.options.js';
import { AuthSessionEntity } from './auth-session.entity.js';
import { sessionIdOf } from './session-cookie.js';
import { SignInAudit, type SignInSource } from './sign-in-audit.js';
import { SessionRepository } from './session.repository.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const randomToken = () => randomBytes(32).toString('base64url');

/** Session ids and CSRF tokens are 43 base64url characters; anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A signed-in session: the principal, and the CSRF token its state-changing requests must carry. */
export interface SessionPrincipal {
  readonly principal: Principal;
  readonly csrfToken: string;
}

/** A new session: the cookie value (shown to the browser only) and when it ends. */
export interface StartedSession {
  readonly sessionId: string;
  readonly expiresAt: Date;
}

/**
 * Browser sessions of people. The cookie carries a random id; the table keeps its hash, the
 * person, the role and tenant given at sign-in, and a synchronizer CSRF token (ADR 021).
 */
@Injectable()
export class SessionService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly audit: SignInAudit,
    @Optional() @Inject(OIDC_OPTIONS) private readonly oidc?: OidcOptions,
  ) {}

  /** Whether session cookies are `Secure` and `__Host-` prefixed (the gateway is reached over https). */
  get secureCookies(): boolean {
    return secureCookiesOf(this.oidc);
  }

  /** The session id in a request's `Cookie` header, in the one spelling this mode accepts. */
  sessionIdIn(cookieHeader: string | undefined): string | undefined {
    return sessionIdOf(cookieHeader, this.secureCookies);
  }

  /** Starts a session for a person whose claims mapped to `role` of `tenantId`. */
  async start(
    person: PersonIdentity,
    access: { role: Role; tenantId: string | null },
    ttlMs: number,
  ): Promise<StartedSession> {
    const sessionId = randomToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + ttlMs);
    await this.sessions.deleteExpired(now, (em, expired) => this.audit.sessionExpired(em, expired));
    await this.sessions.insertSession(
      Object.assign(new AuthSessionEntity(), {
        idHash: sha256(sessionId),
        provider: person.provider,
        subject: person.subject,
        name: person.name?.slice(0, 200) ?? null,
        email: person.email?.slice(0, 320) ?? null,
        role: access.role,
        tenantId: access.tenantId,
        csrfToken: randomToken(),
        createdAt: now,
        expiresAt,
      }),
    );
    return { sessionId, expiresAt };
  }

  /** The live session behind a cookie value, or null (unknown, malformed, expired or signed out). */
  async resolve(sessionId: string | undefined): Promise<SessionPrincipal | null> {
    if (!sessionId || !TOKEN.test(sessionId)) return null;
    const row = await this.sessions.findLiveSession(sha256(sessionId), new Date());
    if (!row) return null;
    const person: PersonIdentity = {
      provider: row.provider,
      subject: row.subject,
      ...(row.name ? { name: row.name } : {}),
      ...(row.email ? { email: row.email } : {}),
    };
    return { principal: personPrincipal(person, row.role, row.tenantId), csrfToken: row.csrfToken };
  }

  /**
   * Refuses (FORBIDDEN) a state-changing request whose CSRF header is missing or not this
   * session's token. Compared in constant time.
   */
  checkCsrf(session: SessionPrincipal, header: string | undefined): void {
    const expected = Buffer.from(session.csrfToken);
    const given = Buffer.from(header ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new ToolgateError(ErrorCode.FORBIDDEN, {
        details: {
          reason: 'a signed-in browser request that changes something needs the X-CSRF-Token of its session',
        },
      });
    }
  }

  /** Ends a session at once (sign-out), on the record; unknown and ended ids are ignored. */
  async end(sessionId: string | undefined, source: SignInSource = {}): Promise<void> {
    const live = await this.resolve(sessionId);
    if (!live) return;
    await this.sessions.deleteSession(sha256(sessionId!));
    await this.audit.signedOut(live.principal, source);
  }
}
