import { Inject, Injectable, Logger } from '@nestjs/common';
import { RefreshingCache } from '@toolgate/database';
import { BindingResolver } from '@toolgate/tenancy';
import type { ErrorEnvelope, Locale } from '@toolgate/toolkit';
import { QUOTAS_OPTIONS, type QuotasOptions } from '../quotas.options.js';
import { dayLimitOf, tenantQuotas, type DayLimit } from '../tenant-quotas.js';
import { dayBudgetEnvelope, daySpent, DayBudgetSpentError, type DayBudget } from './day-budget.js';
import { TokenDayRepository } from './token-day.repository.js';
import { nextUtcMidnight, utcDay } from './utc-day.js';

/** Every tenant's tokens of one UTC day (the admin overview). */
export interface TokenDayOverview {
  readonly day: string;
  readonly resetAt: string;
  readonly tenants: { tenantId: string; tokens: number; tokensPerDay: number | null }[];
}

/**
 * The tenant's model tokens per UTC day (`quotas: [{ tokensPerDay: n }]` in the tenant file, held
 * to the platform's `quotas.maxTokensPerDay`), counted in the database so that every gateway adds to and checks the same day. Every model turn
 * of every run adds its tokens, with or without a limit (a limit set at noon counts the morning).
 * Checked before each model turn: runs in flight at the moment the day is spent each finish the turn
 * they are in, so the day may end a few turns over its limit, never a turn more per run.
 */
@Injectable()
export class TokenBudget {
  private readonly logger = new Logger('TokenBudget');
  private readonly limits: RefreshingCache<string, DayLimit>;

  constructor(
    bindings: BindingResolver,
    @Inject(QUOTAS_OPTIONS) options: QuotasOptions,
    private readonly days: TokenDayRepository,
  ) {
    this.limits = new RefreshingCache(
      async (tenantId) => dayLimitOf(await tenantQuotas(bindings, tenantId), options.maxTokensPerDay),
      {
        ttlMs: options.quotaCacheTtlMs,
        waitOnStaleMs: 200,
      },
    );
  }

  /** Adds a model turn's tokens to the tenant's day. */
  async spend(tenantId: string, tokens: number, at = new Date()): Promise<void> {
    if (!(tokens > 0)) return;
    try {
      await this.days.add(tenantId, utcDay(at), Math.round(tokens), at);
    } catch (err) {
      // A run whose turn was not counted still ran; the day's count is short by that turn.
      this.logger.warn(`tokens of tenant ${tenantId} not counted: ${(err as Error).message}`);
    }
  }

  /** The tenant's day so far and its limit. */
  async day(tenantId: string, at = new Date()): Promise<DayBudget> {
    const { tokensPerDay, byPlatform } = await this.limitOf(tenantId);
    const day = utcDay(at);
    // Without a limit there is nothing to compare: no read.
    const tokens = tokensPerDay === null ? 0 : await this.days.tokens(tenantId, day);
    return { tenantId, day, tokens, tokensPerDay, ...(byPlatform ? { byPlatform } : {}) };
  }

  private async limitOf(tenantId: string): Promise<DayLimit> {
    return (await this.limits.get(tenantId)) ?? { tokensPerDay: null, byPlatform: false };
  }

  /**
   * BUDGET_EXCEEDED when the tenant's day is spent, null while tokens remain. The loop's check
   * before each model turn; a database that does not answer lets the turn go (like call quotas).
   */
  async exceeded(tenantId: string, locale: Locale, at = new Date()): Promise<ErrorEnvelope | null> {
    const budget = await this.readDay(tenantId, at);
    return budget && daySpent(budget) ? dayBudgetEnvelope(budget, locale, at) : null;
  }

  /** Before a run starts: throws 429 BUDGET_EXCEEDED (Retry-After to 00:00 UTC) on a spent day. */
  async assertAvailable(tenantId: string, at = new Date()): Promise<void> {
    const budget = await this.readDay(tenantId, at);
    if (budget && daySpent(budget)) throw new DayBudgetSpentError(budget, at);
  }

  /** Each tenant's tokens today (of the scope's tenant only), with its effective limit. */
  async today(scope: string | null, at = new Date()): Promise<TokenDayOverview> {
    const day = utcDay(at);
    const rows = await this.days.ofDay(day, scope);
    // A tenant's own overview shows its limit even before its first token of the day.
    if (scope !== null && !rows.length) rows.push({ tenantId: scope, tokens: 0 });
    return {
      day,
      resetAt: nextUtcMidnight(at).toISOString(),
      tenants: await Promise.all(
        rows.map(async (r) => ({ ...r, tokensPerDay: (await this.limitOf(r.tenantId)).tokensPerDay })),
      ),
    };
  }

  private async readDay(tenantId: string, at: Date): Promise<DayBudget | null> {
    try {
      return await this.day(tenantId, at);
    } catch (err) {
      this.logger.warn(`token budget of tenant ${tenantId} unreadable: ${(err as Error).message}`);
      return null;
    }
  }
}
