import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { RULE_LIMIT_WINDOWS_MS, type RuleLimit } from '@toolgate/contract/rules';
import { RefreshingCache } from '@toolgate/database';
import { BindingResolver } from '@toolgate/tenancy';
import {
  ErrorCode,
  errorEnvelope,
  ToolgateError,
  type CallFace,
  type ErrorEnvelope,
  type Locale,
} from '@toolgate/toolkit';
import { MemoryQuotaStore, RedisQuotaStore, type QuotaStore, type WindowCount } from './quota-store.js';
import { QUOTAS_OPTIONS, type QuotasOptions } from './quotas.options.js';
import type { CallQuota } from './tenant-quota-settings.js';
import { isCallQuota, tenantQuotas } from './tenant-quotas.js';

const MINUTE = 60_000;

/** One piece of work counted against the tenant's call quotas. */
export interface QuotaAsk {
  readonly tenantId: string;
  /** The key (or person) asking; quotas of `scope: key` count per principal. */
  readonly principalId: string | undefined;
  /**
   * The tool called; null for work that is not one tool's call (an agent run's start), which only
   * quotas for all tools (`tool: '*'`) count.
   */
  readonly tool: string | null;
  readonly face: CallFace | undefined;
  readonly locale: Locale;
}

/** A call counted in a tenant rule's `limit` bucket. */
export interface RuleLimitAsk {
  readonly tenantId: string;
  readonly agentType: string;
  readonly tool: string;
  readonly ruleId: string;
  readonly principalId: string | undefined;
  readonly limit: RuleLimit;
  readonly locale: Locale;
}

/** Where a quota refused: which quota, and when its window renews. */
interface Refusal {
  readonly quota: CallQuota;
  readonly retryAfterSeconds: number;
}

/**
 * The tenant's call quotas (`quotas:` in its file: per tenant or per key, per tool or all, per face
 * or all, calls per minute), counted in fixed one-minute windows — in this process, or in Redis
 * across gateways. Tool calls are counted by QuotaHook before anything else of the call happens;
 * an agent run's start is counted by the runs lib as one call of the key, face `run`, for quotas
 * of all tools. Over a limit: 429 RATE_LIMITED with `Retry-After` (the end of the window).
 */
@Injectable()
export class CallQuotas implements OnApplicationShutdown {
  private readonly logger = new Logger('Quotas');
  private readonly store: QuotaStore;
  private readonly quotas: RefreshingCache<string, readonly CallQuota[]>;

  constructor(bindings: BindingResolver, @Inject(QUOTAS_OPTIONS) options: QuotasOptions) {
    this.store = options.redisUrl
      ? new RedisQuotaStore(options.redisUrl, options.redisPrefix)
      : new MemoryQuotaStore();
    this.quotas = new RefreshingCache(
      // Token quotas are the runs' (TokenBudget): a tenant with only those costs a call nothing here.
      async (tenantId) => (await tenantQuotas(bindings, tenantId)).filter(isCallQuota),
      { ttlMs: options.quotaCacheTtlMs, waitOnStaleMs: 200 },
    );
  }

  /**
   * Counts the work against every quota it falls under: null while all have room, else the
   * RATE_LIMITED envelope. Null at once, without a promise, for a tenant known to have no call
   * quotas (the hot path of every call).
   */
  take(ask: QuotaAsk): Promise<ErrorEnvelope | null> | null {
    const cached = this.quotas.get(ask.tenantId);
    if (Array.isArray(cached) && cached.length === 0) return null;
    return this.refusal(ask, cached).then((r) => (r ? envelopeOf(r, ask.locale) : null));
  }

  /** `take` for work refused by throwing: 429 RATE_LIMITED with `Retry-After`. */
  async assertRoom(ask: QuotaAsk): Promise<void> {
    const refused = await this.refusal(ask, this.quotas.get(ask.tenantId));
    if (refused)
      throw new ToolgateError(ErrorCode.RATE_LIMITED, {
        params: { quota: describe(refused.quota) },
        details: detailsOf(refused),
        headers: { 'retry-after': String(refused.retryAfterSeconds) },
      });
  }

  private async refusal(
    ask: QuotaAsk,
    pending: ReturnType<RefreshingCache<string, readonly CallQuota[]>['get']>,
  ): Promise<Refusal | null> {
    const quotas = (await pending) ?? [];
    // Two quotas on the same counter (say 4/min and 100/min for all tools) count the work once.
    const hits = new Map<string, WindowCount>();
    for (const q of quotas) {
      if (q.tool !== '*' && q.tool !== ask.tool) continue;
      if (q.face && q.face !== ask.face) continue;
      const who = q.scope === 'key' ? `key:${ask.principalId ?? 'system'}` : 'tenant';
      const counter = `${ask.tenantId}:${who}:${q.tool}${q.face ? `:${q.face}` : ''}`;
      let hit = hits.get(counter);
      try {
        hit ??= await this.store.hit(counter, MINUTE);
        hits.set(counter, hit);
      } catch (err) {
        // A quota store outage must not stop the platform: count nothing, let the work through.
        this.logger.warn(`quota store unavailable: ${(err as Error).message}`);
        return null;
      }
      if (hit.count > q.perMinute)
        return { quota: q, retryAfterSeconds: Math.max(1, Math.ceil(hit.resetMs / 1000)) };
    }
    return null;
  }

  /**
   * Counts a call a tenant rule's `limit` matched (issue 26) in the rule's bucket: the same store
   * and fixed windows as the call quotas, one counter per tenant, agent type, tool, rule and key
   * (or the tenant). Null while the bucket has room, else the quotas' RATE_LIMITED envelope naming
   * the rule. Unlike the call quotas, a store outage refuses (fail closed, ADR 041): a rule is a
   * tenant's restriction on what a call carries, not the platform's protection of itself.
   */
  async takeRuleLimit(ask: RuleLimitAsk): Promise<ErrorEnvelope | null> {
    const { limit } = ask;
    const windowMs = RULE_LIMIT_WINDOWS_MS[limit.per];
    const who = limit.scope === 'key' ? `key:${ask.principalId ?? 'system'}` : 'tenant';
    const counter = `${ask.tenantId}:rule:${ask.agentType}:${ask.tool}:${ask.ruleId}:${who}`;
    const quota = `${limit.max}/${limit.per} ${limit.scope === 'key' ? 'per key' : 'per tenant'} (rule ${ask.ruleId} on ${ask.tool})`;
    let hit: WindowCount;
    try {
      hit = await this.store.hit(counter, windowMs);
    } catch (err) {
      this.logger.warn(
        `quota store unavailable, rule ${ask.ruleId}'s limit refuses: ${(err as Error).message}`,
      );
      return errorEnvelope(
        ErrorCode.RATE_LIMITED,
        ask.locale,
        { quota },
        { retryAfterSeconds: 5, rule: ask.ruleId, limit, unavailable: true },
      );
    }
    if (hit.count <= limit.max) return null;
    const retryAfterSeconds = Math.max(1, Math.ceil(hit.resetMs / 1000));
    return errorEnvelope(
      ErrorCode.RATE_LIMITED,
      ask.locale,
      { quota },
      { retryAfterSeconds, rule: ask.ruleId, limit },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

function describe(q: CallQuota): string {
  const scope = q.scope === 'key' ? 'per key' : 'per tenant';
  const tools = q.tool === '*' ? 'all tools' : q.tool;
  return `${q.perMinute}/min ${scope} for ${tools}${q.face ? ` (${q.face} calls)` : ''}`;
}

const detailsOf = (r: Refusal) => ({ retryAfterSeconds: r.retryAfterSeconds, quota: r.quota });

function envelopeOf(r: Refusal, locale: Locale): ErrorEnvelope {
  return errorEnvelope(ErrorCode.RATE_LIMITED, locale, { quota: describe(r.quota) }, detailsOf(r));
}
