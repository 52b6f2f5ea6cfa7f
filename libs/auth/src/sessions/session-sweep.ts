import { Injectable, Logger } from '@nestjs/common';
import { PeriodicSweep } from '@toolgate/database';
import { SESSION_SWEEP_INTERVAL_MS } from '../oidc/oidc.options.js';
import { SessionRepository } from './session.repository.js';

/**
 * Deletes expired sessions and abandoned sign-ins on a schedule: an anonymous visitor can start a
 * sign-in, and without this its row would stay until somebody's next successful sign-in.
 */
@Injectable()
export class SessionSweep extends PeriodicSweep {
  constructor(private readonly sessions: SessionRepository) {
    super(SESSION_SWEEP_INTERVAL_MS, new Logger(SessionSweep.name), 'session sweep');
  }

  protected sweep(): Promise<void> {
    return this.sessions.deleteExpired(new Date());
  }
}
