import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@toolgate/audit';
import type { EntityManager } from 'typeorm';
import type { PersonIdentity, Principal } from '../principal.js';
import type { Role } from '../roles.js';
import type { AuthSessionEntity } from './auth-session.entity.js';

/** Where a sign-in request came from: the client address Fastify reports (proxies per `trustProxy`). */
export interface SignInSource {
  readonly sourceAddress?: string;
}

/**
 * People's sign-ins and sign-outs as audit events (等保 2.0 8.1.4.3: every user's important acts,
 * with time, user, event type and outcome). A sign-in goes to the chain of the tenant it gives
 * access to (the platform's for platform roles); a refused one, which gives access to nothing, to
 * the platform's. Only a sign-in the gateway itself started can be refused on the record, so
 * anonymous callbacks with made-up states cannot grow the trail (sign-ins under way are capped).
 */
@Injectable()
export class SignInAudit {
  constructor(private readonly audit: AuditTrail) {}

  signedIn(
    person: PersonIdentity,
    access: { role: Role; tenantId: string | null },
    source: SignInSource,
  ): Promise<void> {
    return this.audit.record([
      {
        event: 'signed_in',
        tenantId: access.tenantId,
        actor: { type: 'user', id: `${person.provider}:${person.subject}` },
        details: {
          outcome: 'success',
          provider: person.provider,
          role: access.role,
          ...(person.name ? { name: person.name } : {}),
          ...(source.sourceAddress ? { sourceAddress: source.sourceAddress } : {}),
        },
      },
    ]);
  }

  signInFailed(
    reason: string,
    provider: string,
    source: SignInSource,
    person?: PersonIdentity,
  ): Promise<void> {
    return this.audit.record([
      {
        event: 'sign_in_failed',
        tenantId: null,
        actor: person
          ? { type: 'user', id: `${person.provider}:${person.subject}` }
          : { type: 'system', id: provider },
        details: {
          outcome: 'failure',
          provider,
          reason,
          ...(person?.name ? { name: person.name } : {}),
          ...(source.sourceAddress ? { sourceAddress: source.sourceAddress } : {}),
        },
      },
    ]);
  }

  /** A session that ran out (not signed out), recorded in the transaction that deletes it. */
  sessionExpired(em: EntityManager, session: AuthSessionEntity): Promise<void> {
    return this.audit.recordIn(em, [
      {
        event: 'session_expired',
        tenantId: session.tenantId,
        actor: { type: 'user', id: `${session.provider}:${session.subject}` },
        details: {
          outcome: 'success',
          provider: session.provider,
          role: session.role,
          signedInAt: session.createdAt.toISOString(),
          expiredAt: session.expiresAt.toISOString(),
        },
      },
    ]);
  }

  signedOut(principal: Principal, source: SignInSource): Promise<void> {
    return this.audit.record([
      {
        event: 'signed_out',
        tenantId: principal.tenantId,
        actor: { type: 'user', id: principal.principalId },
        details: {
          outcome: 'success',
          role: principal.role,
          ...(source.sourceAddress ? { sourceAddress: source.sourceAddress } : {}),
        },
      },
    ]);
  }
}
