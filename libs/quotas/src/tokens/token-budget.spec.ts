import type { BindingResolver } from '@toolgate/tenancy';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import { DEFAULT_QUOTAS_OPTIONS } from '../quotas.options.js';
import { tokensPerDayOf } from '../tenant-quotas.js';
import { dayBudgetEnvelope, DayBudgetSpentError } from './day-budget.js';
import { TokenBudget } from './token-budget.js';
import type { TokenDayRepository } from './token-day.repository.js';
import { nextUtcMidnight, secondsToNextUtcDay, utcDay } from './utc-day.js';

/** 2026-12-01T23:59:30Z: thirty seconds before the UTC day turns. */
const LATE = new Date(Date.UTC(2026, 11, 1, 23, 59, 30));

describe('the UTC day', () => {
  it('is the UTC date whatever the local time, and renews at 00:00 UTC', () => {
    expect(utcDay(LATE)).toBe('2026-12-01');
    expect(utcDay(new Date('2026-12-02T00:00:00.000Z'))).toBe('2026-12-02');
    expect(utcDay(new Date('2026-12-02T07:59:59+08:00'))).toBe('2026-12-01');
    expect(nextUtcMidnight(LATE).toISOString()).toBe('2026-12-02T00:00:00.000Z');
    expect(nextUtcMidnight(new Date('2026-12-31T12:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(secondsToNextUtcDay(LATE)).toBe(30);
    expect(secondsToNextUtcDay(new Date('2026-12-01T23:59:59.999Z'))).toBe(1);
  });
});

describe('tokensPerDayOf', () => {
  it('is the smallest token quota, null without one or with null only; call quotas do not count', () => {
    expect(tokensPerDayOf([])).toBeNull();
    expect(tokensPerDayOf([{ scope: 'tenant', tool: '*', perMinute: 5 }])).toBeNull();
    expect(tokensPerDayOf([{ tokensPerDay: null }])).toBeNull();
    expect(tokensPerDayOf([{ tokensPerDay: 900 }, { tokensPerDay: null }, { tokensPerDay: 300 }])).toBe(300);
  });
});

describe('the day budget envelope', () => {
  const spent = { tenantId: 'acme', day: '2026-12-01', tokens: 120, tokensPerDay: 100 };

  it('says which budget, how much, and when it renews, in both languages', () => {
    const en = dayBudgetEnvelope(spent, 'en', LATE);
    expect(en).toMatchObject({
      code: ErrorCode.BUDGET_EXCEEDED,
      details: {
        quota: { tokensPerDay: 100 },
        day: '2026-12-01',
        tokensToday: 120,
        resetAt: '2026-12-02T00:00:00.000Z',
        retryAfterSeconds: 30,
      },
    });
    expect(en.error).toContain('tenant acme used 120 tokens today (UTC 2026-12-01)');
    expect(en.suggestedAction).toContain('2026-12-02T00:00:00.000Z');
    expect(en.suggestedAction).toContain('tokensPerDay');
    const zh = dayBudgetEnvelope(spent, 'zh-CN', LATE);
    expect(zh.error).toContain('租户 acme');
    expect(zh.suggestedAction).toContain('tokensPerDay');
  });

  it('is thrown at a run start as a 429 answer with Retry-After to 00:00 UTC', () => {
    const err = new DayBudgetSpentError(spent, LATE);
    expect(err).toBeInstanceOf(ToolgateError);
    expect(err.headers).toEqual({ 'retry-after': '30' });
    expect(err.toEnvelope('en')).toEqual(dayBudgetEnvelope(spent, 'en', LATE));
  });
});

/** The day counters in memory, with the database repository's contract. */
class MemoryTokenDays {
  readonly rows = new Map<string, number>();
  failing = false;
  async add(tenantId: string, day: string, tokens: number) {
    if (this.failing) throw new Error('database down');
    this.rows.set(`${tenantId}|${day}`, (this.rows.get(`${tenantId}|${day}`) ?? 0) + tokens);
  }
  async tokens(tenantId: string, day: string) {
    if (this.failing) throw new Error('database down');
    return this.rows.get(`${tenantId}|${day}`) ?? 0;
  }
  addition(tenantId: string, day: string, tokens: number) {
    return { sql: 'upsert', params: [tenantId, day, tokens] };
  }
  reading(tenantId: string, day: string) {
    return { sql: 'select', params: [tenantId, day] };
  }
  tokensOf(rows: readonly Record<string, unknown>[]) {
    return Number(rows[0]?.tokens ?? 0);
  }
  async ofDay(day: string, scope: string | null) {
    return [...this.rows]
      .map(([k, tokens]) => ({ tenantId: k.split('|')[0]!, day: k.split('|')[1]!, tokens }))
      .filter((r) => r.day === day && (scope === null || r.tenantId === scope))
      .map(({ tenantId, tokens }) => ({ tenantId, tokens }));
  }
}

describe('TokenBudget', () => {
  const quotas = new Map<string, unknown>([
    ['acme', [{ perMinute: 10 }, { tokensPerDay: 100 }]],
    ['globex', [{ perMinute: 10 }]],
  ]);
  const bindings = {
    tenant: async (id: string) => ({ id, settings: { quotas: quotas.get(id) } }),
  } as unknown as BindingResolver;
  const make = (maxTokensPerDay: number | null = null) => {
    const days = new MemoryTokenDays();
    const budget = new TokenBudget(
      bindings,
      { ...DEFAULT_QUOTAS_OPTIONS, maxTokensPerDay, redisPrefix: 'spec' },
      days as unknown as TokenDayRepository,
    );
    return { days, budget };
  };

  it("counts each tenant's turns in its UTC day and refuses once the day reaches its limit", async () => {
    const { budget } = make();
    await budget.spend('acme', 60, LATE);
    await budget.assertAvailable('acme', LATE);
    expect(await budget.exceeded('acme', 'en', LATE)).toBeNull();
    await budget.spend('acme', 40, LATE);
    await expect(budget.assertAvailable('acme', LATE)).rejects.toBeInstanceOf(DayBudgetSpentError);
    expect((await budget.exceeded('acme', 'en', LATE))?.code).toBe(ErrorCode.BUDGET_EXCEEDED);
    // The next UTC day starts from nothing; another tenant was never limited.
    const tomorrow = new Date(LATE.getTime() + 60_000);
    expect(await budget.exceeded('acme', 'en', tomorrow)).toBeNull();
    await budget.spend('globex', 10_000, LATE);
    await budget.assertAvailable('globex', LATE);
  });

  it('counts tenants without a limit too, and shows the day per tenant with its limit', async () => {
    const { budget } = make();
    await budget.spend('globex', 7, LATE);
    await budget.spend('acme', 3, LATE);
    await budget.spend('acme', 0, LATE);
    expect(await budget.today(null, LATE)).toEqual({
      day: '2026-12-01',
      resetAt: '2026-12-02T00:00:00.000Z',
      tenants: [
        { tenantId: 'globex', tokens: 7, tokensPerDay: null },
        { tenantId: 'acme', tokens: 3, tokensPerDay: 100 },
      ],
    });
    // A tenant's own view names its limit before its first token of the day.
    expect((await budget.today('acme', new Date('2026-12-05T10:00:00Z'))).tenants).toEqual([
      { tenantId: 'acme', tokens: 0, tokensPerDay: 100 },
    ]);
  });

  it("holds every tenant to the platform's ceiling: a tenant without a cap, and one whose cap is above it", async () => {
    const { budget } = make(50);
    await budget.spend('globex', 50, LATE);
    await budget.spend('acme', 50, LATE);
    const refused = await budget.exceeded('globex', 'en', LATE);
    expect(refused).toMatchObject({
      code: ErrorCode.BUDGET_EXCEEDED,
      details: { quota: { tokensPerDay: 50, source: 'platform' } },
    });
    expect(refused!.suggestedAction).toContain('quotas.maxTokensPerDay');
    await expect(budget.assertAvailable('acme', LATE)).rejects.toBeInstanceOf(DayBudgetSpentError);
    expect((await budget.today(null, LATE)).tenants).toEqual([
      { tenantId: 'globex', tokens: 50, tokensPerDay: 50 },
      { tenantId: 'acme', tokens: 50, tokensPerDay: 50 },
    ]);
    // A tenant's own cap below the ceiling is its own (the admin raises it, within the ceiling).
    const { budget: high } = make(1_000);
    expect((await high.today('acme', LATE)).tenants).toEqual([
      { tenantId: 'acme', tokens: 0, tokensPerDay: 100 },
    ]);
  });

  it('lets runs go when the counters cannot be read or written (like call quotas)', async () => {
    const { budget, days } = make();
    await budget.spend('acme', 500, LATE);
    days.failing = true;
    await budget.spend('acme', 5, LATE);
    expect(await budget.exceeded('acme', 'en', LATE)).toBeNull();
    await budget.assertAvailable('acme', LATE);
  });

  it("gives a write the tenant's held tokens to carry, takes them back when it failed, and checks from its read", async () => {
    const { budget, days } = make();
    budget.spend('acme', 30, LATE);
    budget.spend('globex', 5, LATE);
    const carried = budget.carry('acme', LATE);
    expect(carried.writes).toEqual([{ sql: 'upsert', params: ['acme', '2026-12-01', 30] }]);
    expect(carried.read).toEqual({ sql: 'select', params: ['acme', '2026-12-01'] });
    // Taken: a second write carries none of them; another tenant's stay held.
    expect(budget.carry('acme', LATE).writes).toEqual([]);
    carried.returned();
    expect(budget.carry('acme', LATE).writes).toHaveLength(1);
    // The check after a write: what it read plus what is held since.
    budget.spend('acme', 10, LATE);
    expect(await budget.refusalAfter('acme', [{ tokens: 89 }], 'en', LATE)).toBeNull();
    expect((await budget.refusalAfter('acme', [{ tokens: 90 }], 'en', LATE))?.code).toBe(
      ErrorCode.BUDGET_EXCEEDED,
    );
    // Nothing carries them: written on their own.
    await budget.flush();
    expect(days.rows.get('acme|2026-12-01')).toBe(10);
    expect(days.rows.get('globex|2026-12-01')).toBe(5);
  });
});
