import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { RefreshingCache, type ReadStatement, type WriteStatement } from '@toolgate/database';
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
 * How long a turn's tokens are held for a write of their tenant to carry them (ADR 050) before
 * they are written on their own. A crash loses at most this long's tokens of turns no write carried.
 */
const HOLD_MS = 200;

/** A tenant's tokens held on this gateway, for a write to carry; `returned` gives them back when it failed. */
export interface CarriedTokens {
  /** The tenant's held counts as upserts, for the carrying transaction (none when nothing is held). */
  readonly writes: WriteStatement[];
  /** The read of the tenant's day, after the writes (`refusalAfter` takes its rows). */
  readonly read: ReadStatement;
  /** The carrying write failed: the counts are held again. */
  returned(): void;
}

/**
 * The tenant's model tokens per UTC day (`quotas: [{ tokensPerDay: n }]` in the tenant file, held
 * to the platform's `quotas.maxTokensPerDay`), counted in the database so that every gateway adds to and checks the same day. Every model turn
 * of every run adds its tokens, with or without a limit (a limit set at noon counts the morning).
 * Checked before each model turn: runs in flight at the moment the day is spent each finish the turn
 * they are in, so the day may end a few turns over its limit, never a turn more per run.
 */
@Injectable()
export class TokenBudget implements OnApplicationShutdown {
  private readonly logger = new Logger('TokenBudget');
  private readonly limits: RefreshingCache<string, DayLimit>;
  /** Tokens spent here and not yet written, by tenant and day (group commit, ADR 050). */
  private readonly held = new Map<string, { tenantId: string; day: string; tokens: number; at: Date }>();
  private holdTimer: NodeJS.Timeout | null = null;

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

  /**
   * Adds a model turn's tokens to the tenant's day: held here until a write of the tenant carries
   * them (`carry`, the turn's own write) or HOLD_MS pass; checks on this gateway count them at once.
   */
  spend(tenantId: string, tokens: number, at = new Date()): void {
    if (!(tokens > 0)) return;
    this.hold(tenantId, utcDay(at), Math.round(tokens), at);
    this.holdTimer ??= setTimeout(() => void this.flush(), HOLD_MS).unref();
  }

  private hold(tenantId: string, day: string, tokens: number, at: Date): void {
    const key = `${tenantId}\u0000${day}`;
    const now = this.held.get(key);
    this.held.set(key, { tenantId, day, tokens: (now?.tokens ?? 0) + tokens, at });
  }

  /** Tokens of the tenant's day held here, not yet written. */
  private heldOf(tenantId: string, day: string): number {
    return this.held.get(`${tenantId}\u0000${day}`)?.tokens ?? 0;
  }

  /** The tenant's held counts (taken: the carrying write owns them) and the read of its day. */
  carry(tenantId: string, at = new Date()): CarriedTokens {
    const taken = [...this.held].filter(([, h]) => h.tenantId === tenantId);
    for (const [key] of taken) this.held.delete(key);
    return {
      writes: taken.map(([, h]) => this.days.addition(h.tenantId, h.day, h.tokens, h.at)),
      read: this.days.reading(tenantId, utcDay(at)),
      returned: () => {
        for (const [, h] of taken) this.hold(h.tenantId, h.day, h.tokens, h.at);
        this.holdTimer ??= setTimeout(() => void this.flush(), HOLD_MS).unref();
      },
    };
  }

  /** Writes every held count now, each tenant's day in its own statement. */
  async flush(): Promise<void> {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    const all = [...this.held.values()];
    this.held.clear();
    for (const h of all)
      await this.days.add(h.tenantId, h.day, h.tokens, h.at).catch((err: Error) => {
        // A run whose turn was not counted still ran; the day's count is short by that turn.
        this.logger.warn(`tokens of tenant ${h.tenantId} not counted: ${err.message}`);
      });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /**
   * BUDGET_EXCEEDED or null, from the rows of a `carry` read (what committed up to the carrying
   * write) plus what this gateway holds since: the loop's check without a round trip of its own.
   */
  async refusalAfter(
    tenantId: string,
    rows: readonly Record<string, unknown>[],
    locale: Locale,
    at = new Date(),
  ): Promise<ErrorEnvelope | null> {
    const { tokensPerDay, byPlatform } = await this.limitOf(tenantId);
    const day = utcDay(at);
    const budget: DayBudget = {
      tenantId,
      day,
      tokens: this.days.tokensOf(rows) + this.heldOf(tenantId, day),
      tokensPerDay,
      ...(byPlatform ? { byPlatform } : {}),
    };
    return daySpent(budget) ? dayBudgetEnvelope(budget, locale, at) : null;
  }

  /** The tenant's day so far and its limit. */
  async day(tenantId: string, at = new Date()): Promise<DayBudget> {
    const { tokensPerDay, byPlatform } = await this.limitOf(tenantId);
    const day = utcDay(at);
    // Without a limit there is nothing to compare: no read. Tokens held here count already.
    const tokens =
      tokensPerDay === null ? 0 : (await this.days.tokens(tenantId, day)) + this.heldOf(tenantId, day);
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
    // The overview reads the table: what is held here goes in first.
    await this.flush();
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
