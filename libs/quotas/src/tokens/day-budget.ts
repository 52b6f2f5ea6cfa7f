import { errorEnvelope, ErrorCode, ToolgateError, type ErrorEnvelope, type Locale } from '@toolgate/toolkit';
import { nextUtcMidnight, secondsToNextUtcDay } from './utc-day.js';

/** A tenant's tokens of one UTC day against its `tokensPerDay`. */
export interface DayBudget {
  readonly tenantId: string;
  /** `YYYY-MM-DD`, UTC. */
  readonly day: string;
  readonly tokens: number;
  /** null: no limit. */
  readonly tokensPerDay: number | null;
  /** The platform's ceiling (`quotas.maxTokensPerDay`) is the limit, not the tenant's own cap. */
  readonly byPlatform?: boolean;
}

/** Spent once the day's tokens reach the limit (the run-level `tokenBudget` counts the same way). */
export const daySpent = (b: DayBudget): boolean => b.tokensPerDay !== null && b.tokens >= b.tokensPerDay;

/**
 * What the client reads: which budget (the tenant's day, not the agent type's `tokenBudget`), and
 * that it renews at 00:00 UTC.
 */
const TEXTS: Record<
  Locale,
  { budget: (b: DayBudget) => string; action: (resetAt: string, byPlatform: boolean) => string }
> = {
  'zh-CN': {
    budget: (b) =>
      `租户 ${b.tenantId} 今天（UTC ${b.day}）已用 ${b.tokens} token，每日上限 ${b.tokensPerDay}`,
    action: (resetAt, byPlatform) =>
      byPlatform
        ? `租户的每日 token 额度在 ${resetAt}（UTC 0 点）恢复：届时再发起运行；该上限是平台的 quotas.maxTokensPerDay，只有平台管理员能调高`
        : `租户的每日 token 额度在 ${resetAt}（UTC 0 点）恢复：届时再发起运行，或请管理员调高租户的 tokensPerDay`,
  },
  en: {
    budget: (b) =>
      `tenant ${b.tenantId} used ${b.tokens} tokens today (UTC ${b.day}), its limit is ${b.tokensPerDay} per day`,
    action: (resetAt, byPlatform) =>
      byPlatform
        ? `The tenant's daily tokens renew at ${resetAt} (00:00 UTC): start the run again then; this limit is the platform's quotas.maxTokensPerDay, which only a platform admin can raise`
        : `The tenant's daily tokens renew at ${resetAt} (00:00 UTC): start the run again then, or ask an admin to raise the tenant's tokensPerDay`,
  },
};

/** The details both answers carry: a client can schedule its retry from them. */
function detailsOf(b: DayBudget, now: Date): Record<string, unknown> {
  return {
    quota: { tokensPerDay: b.tokensPerDay, ...(b.byPlatform ? { source: 'platform' } : {}) },
    day: b.day,
    tokensToday: b.tokens,
    resetAt: nextUtcMidnight(now).toISOString(),
    retryAfterSeconds: secondsToNextUtcDay(now),
  };
}

/** BUDGET_EXCEEDED for a tenant whose day's tokens are spent, in a locale. */
export function dayBudgetEnvelope(b: DayBudget, locale: Locale, now = new Date()): ErrorEnvelope {
  const texts = TEXTS[locale] ?? TEXTS.en;
  const envelope = errorEnvelope(
    ErrorCode.BUDGET_EXCEEDED,
    locale,
    { budget: texts.budget(b) },
    detailsOf(b, now),
  );
  return {
    ...envelope,
    suggestedAction: texts.action(nextUtcMidnight(now).toISOString(), b.byPlatform === true),
  };
}

/** Thrown when a run would start on a spent day: 429 BUDGET_EXCEEDED with `Retry-After` to 00:00 UTC. */
export class DayBudgetSpentError extends ToolgateError {
  constructor(
    readonly budget: DayBudget,
    private readonly now = new Date(),
  ) {
    super(ErrorCode.BUDGET_EXCEEDED, {
      details: detailsOf(budget, now),
      headers: { 'retry-after': String(secondsToNextUtcDay(now)) },
    });
  }

  override toEnvelope(locale: Locale): ErrorEnvelope {
    return dayBudgetEnvelope(this.budget, locale, this.now);
  }
}
