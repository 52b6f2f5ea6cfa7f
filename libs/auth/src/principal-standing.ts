import { Injectable } from '@nestjs/common';
import { toSqlDateTime, type ReadStatement } from '@toolgate/database';
import { errorEnvelope, ErrorCode, type ErrorEnvelope, type Locale } from '@toolgate/toolkit';
import { ApiKeyRepository } from './api-key.repository.js';
import { SessionRepository } from './sessions/session.repository.js';

/** A principal that asked for work done later on its behalf: a key or a signed-in person. */
export interface StandingPrincipal {
  readonly principalType: 'api_key' | 'user' | 'system';
  readonly principalId: string;
}

/**
 * Whether a principal may still act, asked by work that goes on after the request that started it
 * (an agent run resumed after an approval, each further step of it, an approved call): a key that
 * has not been revoked; a person with a session that has not ended (signed out or expired). Read
 * from the database every time, not from the key cache: a revocation on any gateway counts at
 * once. The platform itself (`system`) always may.
 */
@Injectable()
export class PrincipalStanding {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly sessions: SessionRepository,
  ) {}

  async stillValid(principal: StandingPrincipal, now = new Date()): Promise<boolean> {
    if (principal.principalType === 'system') return true;
    if (principal.principalType === 'api_key') return this.keys.isActive(principal.principalId);
    // A person's principal id is `<provider>:<subject>`; the subject may hold colons itself.
    const at = principal.principalId.indexOf(':');
    if (at <= 0) return false;
    return this.sessions.hasLiveSession(
      principal.principalId.slice(0, at),
      principal.principalId.slice(at + 1),
      now,
    );
  }

  /**
   * The same question as a statement a caller's write carries (ADR 050): the answer is known
   * without a round trip of its own. A boolean when no read is needed (the platform; a malformed id).
   */
  reading(principal: StandingPrincipal, now = new Date()): ReadStatement | boolean {
    if (principal.principalType === 'system') return true;
    if (principal.principalType === 'api_key')
      return {
        sql: 'SELECT COUNT(1) AS n FROM api_keys WHERE id = ? AND revoked_at IS NULL',
        params: [principal.principalId],
      };
    const at = principal.principalId.indexOf(':');
    if (at <= 0) return false;
    return {
      sql: 'SELECT COUNT(1) AS n FROM auth_sessions WHERE provider = ? AND subject = ? AND expires_at > ?',
      params: [principal.principalId.slice(0, at), principal.principalId.slice(at + 1), toSqlDateTime(now)],
    };
  }

  /** Whether the rows of a `reading` say the principal still holds. */
  validFrom(rows: readonly Record<string, unknown>[]): boolean {
    return Number(rows[0]?.n ?? 0) > 0;
  }
}

/** Why work stopped: the credential it was asked with no longer holds. */
const GONE: Record<Locale, Record<'key_revoked' | 'session_ended', CatalogText>> = {
  'zh-CN': {
    key_revoked: {
      error: '发起该工作的 API 密钥已被吊销，不再代表它执行任何操作',
      suggestedAction: '如仍需要，请用有效的密钥重新发起',
    },
    session_ended: {
      error: '发起该工作的登录会话已结束，不再代表其本人执行任何操作',
      suggestedAction: '如仍需要，请重新登录后再发起',
    },
  },
  en: {
    key_revoked: {
      error: 'The API key this work was started with has been revoked: nothing more runs on its behalf',
      suggestedAction: 'Start it again with a valid key if it is still needed',
    },
    session_ended: {
      error: "The session this work was started in has ended: nothing more runs on that person's behalf",
      suggestedAction: 'Sign in again and start it again if it is still needed',
    },
  },
};

interface CatalogText {
  readonly error: string;
  readonly suggestedAction: string;
}

/**
 * The envelope of work stopped because its principal no longer holds (`PrincipalStanding`):
 * UNAUTHENTICATED, as a request with that credential would get, with `details.reason`
 * (`key_revoked` or `session_ended`) and `details.principalId`.
 */
export function standingLostEnvelope(principal: StandingPrincipal, locale: Locale): ErrorEnvelope {
  const reason = principal.principalType === 'user' ? 'session_ended' : 'key_revoked';
  const text = (GONE[locale] ?? GONE.en)[reason];
  return {
    ...errorEnvelope(ErrorCode.UNAUTHENTICATED, locale, {}, { reason, principalId: principal.principalId }),
    ...text,
  };
}
