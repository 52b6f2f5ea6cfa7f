import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { RefreshingCache } from '@toolgate/database';
import { BindingResolver, type CallQuota } from '@toolgate/tenancy';
import {
  ErrorCode,
  errorEnvelope,
  HookOrder,
  ToolCallHookProvider,
  type ToolCall,
  type ToolCallHook,
  type ToolCallStop,
} from '@toolgate/toolkit';
import { MemoryQuotaStore, RedisQuotaStore, type QuotaStore } from './quota-store.js';
import { QUOTAS_OPTIONS, type QuotasOptions } from './quotas.options.js';
import { isCallQuota, tenantQuotas } from './tenant-quotas.js';

const MINUTE = 60_000;

/**
 * Per-tenant and per-key call quotas from the tenant file (`quotas:`), checked before anything
 * else of a call happens. Over the limit the call answers 429 RATE_LIMITED with `Retry-After`.
 */
@Injectable()
@ToolCallHookProvider({ order: HookOrder.QUOTAS })
export class QuotaHook implements ToolCallHook, OnApplicationShutdown {
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

  beforeExecute(call: ToolCall): Promise<ToolCallStop | undefined> | undefined {
    const tenantId = call.request.tenant?.id;
    if (!tenantId) return undefined;
    const cached = this.quotas.get(tenantId);
    if (Array.isArray(cached) && cached.length === 0) return undefined; // the common case, no promise
    return this.check(call, tenantId, cached);
  }

  private async check(
    call: ToolCall,
    tenantId: string,
    pending: ReturnType<RefreshingCache<string, readonly CallQuota[]>['get']>,
  ): Promise<ToolCallStop | undefined> {
    const quotas = (await pending) ?? [];
    const tool = call.tool.contract.name;
    const face = call.request.face;
    // Two quotas on the same counter (say 4/min and 100/min for all tools) count the call once.
    const hits = new Map<string, Awaited<ReturnType<QuotaStore['hit']>>>();
    for (const q of quotas) {
      if (q.tool !== '*' && q.tool !== tool) continue;
      if (q.face && q.face !== face) continue;
      const who = q.scope === 'key' ? `key:${call.request.principal?.principalId ?? 'system'}` : 'tenant';
      const counter = `${tenantId}:${who}:${q.tool}${q.face ? `:${q.face}` : ''}`;
      let hit = hits.get(counter);
      try {
        hit ??= await this.store.hit(counter, MINUTE);
        hits.set(counter, hit);
      } catch (err) {
        // A quota store outage must not stop the platform: count nothing, let the call through.
        this.logger.warn(`quota store unavailable: ${(err as Error).message}`);
        return undefined;
      }
      if (hit.count > q.perMinute) {
        const retryAfterSeconds = Math.max(1, Math.ceil(hit.resetMs / 1000));
        const quota = `${q.perMinute}/min ${q.scope === 'key' ? 'per key' : 'per tenant'} for ${q.tool === '*' ? 'all tools' : q.tool}${q.face ? ` (${q.face} calls)` : ''}`;
        const envelope = errorEnvelope(
          ErrorCode.RATE_LIMITED,
          call.request.locale,
          { quota },
          { retryAfterSeconds, quota: q },
        );
        return { envelope };
      }
    }
    return undefined;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
