import type { BindingResolver, CallQuota, Quota } from '@toolgate/tenancy';
import { quotaSchema } from '@toolgate/tenancy';
import { z } from 'zod';

const quotaList = z.array(quotaSchema);

/** The tenant's `quotas:` list as its settings hold it; an unreadable list counts as none. */
export async function tenantQuotas(bindings: BindingResolver, tenantId: string): Promise<Quota[]> {
  const parsed = quotaList.safeParse((await bindings.tenant(tenantId))?.settings?.quotas ?? []);
  return parsed.success ? parsed.data : [];
}

export const isCallQuota = (q: Quota): q is CallQuota => 'perMinute' in q;

/** The tenant's tokens per UTC day: the smallest of its token quotas, null without one. */
export function tokensPerDayOf(quotas: readonly Quota[]): number | null {
  const limits = quotas.flatMap((q) =>
    'tokensPerDay' in q && q.tokensPerDay !== null ? [q.tokensPerDay] : [],
  );
  return limits.length ? Math.min(...limits) : null;
}
