import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, MoreThan, type EntityManager, type Repository } from 'typeorm';
import { TransactionRunner } from '@toolgate/database';
import { AuthSessionEntity } from './auth-session.entity.js';
import { OidcLoginEntity } from './oidc-login.entity.js';

/** Expired sessions one sweep deletes at most (each with its event); the next sweep takes the rest. */
const EXPIRED_PER_SWEEP = 500;

/** The only way to the `auth_sessions` and `oidc_logins` tables. */
@Injectable()
export class SessionRepository {
  constructor(
    @InjectRepository(AuthSessionEntity) private readonly sessions: Repository<AuthSessionEntity>,
    @InjectRepository(OidcLoginEntity) private readonly logins: Repository<OidcLoginEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  async insertSession(session: AuthSessionEntity): Promise<void> {
    await this.sessions.insert(session);
  }

  /** The session, if it has not expired at `now`. */
  findLiveSession(idHash: string, now: Date): Promise<AuthSessionEntity | null> {
    return this.sessions.findOne({ where: { idHash, expiresAt: MoreThan(now) } });
  }

  /** Whether the person has any session that has not expired (nor been signed out) at `now`. */
  async hasLiveSession(provider: string, subject: string, now: Date): Promise<boolean> {
    return (await this.sessions.count({ where: { provider, subject, expiresAt: MoreThan(now) } })) > 0;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.sessions.delete({ idHash });
  }

  async insertLogin(login: OidcLoginEntity): Promise<void> {
    await this.logins.insert(login);
  }

  /** Forgets sign-ins past their expiry, then answers how many are still under way. */
  async pendingLogins(now: Date): Promise<number> {
    await this.logins.delete({ expiresAt: LessThan(now) });
    return this.logins.count();
  }

  /**
   * Takes a sign-in under way: reads and deletes it in one transaction, so of two callbacks with
   * the same state at most one finds it. Null when unknown, already taken or expired.
   */
  takeLogin(stateHash: string, now: Date): Promise<OidcLoginEntity | null> {
    return this.transactions.run(async (em) => {
      const login = await em.findOne(OidcLoginEntity, { where: { stateHash } });
      if (!login) return null;
      const deleted = await em.delete(OidcLoginEntity, { stateHash });
      if ((deleted.affected ?? 0) === 0) return null;
      return login.expiresAt.getTime() > now.getTime() ? login : null;
    });
  }

  /**
   * Forgets expired sessions and abandoned sign-ins. Each expired session is deleted with
   * `recordExpired` in one transaction (its `session_expired` event), and only by the gateway whose
   * delete removed it, so two gateways sweeping at once record each expiry once.
   */
  async deleteExpired(
    now: Date,
    recordExpired?: (em: EntityManager, session: AuthSessionEntity) => Promise<void>,
  ): Promise<void> {
    if (!recordExpired) await this.sessions.delete({ expiresAt: LessThan(now) });
    else
      for (const session of await this.sessions.find({
        where: { expiresAt: LessThan(now) },
        order: { expiresAt: 'ASC' },
        take: EXPIRED_PER_SWEEP,
      }))
        await this.transactions.run(async (em) => {
          const deleted = await em.delete(AuthSessionEntity, { idHash: session.idHash });
          if ((deleted.affected ?? 0) > 0) await recordExpired(em, session);
        });
    await this.logins.delete({ expiresAt: LessThan(now) });
  }
}
