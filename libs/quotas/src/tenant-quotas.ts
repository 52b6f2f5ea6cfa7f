import type { BindingResolver } from '@toolgate/tenancy';
import { tenantQuotasSchema, type CallQuota, type Quota } from './tenant-quota-settings.js';

/** The tenant's `quotas:` list as its settings hold it; an unreadable list counts as none. */
export async function tenantQuotas(bindings: BindingResolver, tenantId: string): Promise<Quota[]> {
  const parsed = tenantQuotasSchema.safeParse((await bindings.tenant(tenantId))?.settings?.quotas ?? []);
  return parsed.success ? parsed.data : [];
}

export const isCallQuota = (q: Quota): q is CallQuota => 'perMinute' in q;

/** The tenant's own tokens per UTC day: the smallest of its token quotas, null without one. */
export function tokensPerDayOf(quotas: readonly Quota[]): number | null {
  const limits = quotas.flatMap((q) =>
    'tokensPerDay' in q && q.tokensPerDay !== null ? [q.tokensPerDay] : [],
  );
  return limits.length ? Math.min(...limits) : null;
}

/** A tenant's effective tokens per UTC day, and whether the platform's ceiling is what sets it. */
export interface DayLimit {
  /** null: no limit at all (no cap of its own and no platform ceiling). */
  readonly tokensPerDay: number | null;
  readonly byPlatform: boolean;
}

/**
 * The tenant's cap held to the platform's ceiling (`quotas.maxTokensPerDay`): its own when lower,
 * else the ceiling — also for a tenant with no cap of its own (or one stored before the ceiling).
 */
export function dayLimitOf(quotas: readonly Quota[], ceiling: number | null): DayLimit {
  const own = tokensPerDayOf(quotas);
  if (ceiling === null || (own !== null && own <= ceiling)) return { tokensPerDay: own, byPlatform: false };
  return { tokensPerDay: ceiling, byPlatform: true };
}
