import { Injectable, Logger } from '@nestjs/common';
import { PeriodicSweep } from '@toolgate/database';
import { SESSION_SWEEP_INTERVAL_MS } from '../oidc/oidc.options.js';
import { SessionRepository } from './session.repository.js';
import { SignInAudit } from './sign-in-audit.js';

/**
 * Deletes expired sessions and abandoned sign-ins on a schedule: an anonymous visitor can start a
 * sign-in, and without this its row would stay until somebody's next successful sign-in. Each
 * expired session leaves a `session_expired` event (等保 8.1.4.3 a).
 */
@Injectable()
export class SessionSweep extends PeriodicSweep {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly audit: SignInAudit,
  ) {
    super(SESSION_SWEEP_INTERVAL_MS, new Logger(SessionSweep.name), 'session sweep');
  }

  protected sweep(): Promise<void> {
    return this.sessions.deleteExpired(new Date(), (em, session) => this.audit.sessionExpired(em, session));
  }
}
