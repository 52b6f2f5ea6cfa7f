import { isTenantEnvName, tenantEnvNamespace } from '@toolgate/contract/rules';

/**
 * Which environment variables a tenant's `${NAME}` placeholders may read: only those reserved for
 * it by name, `TOOLGATE_T_<TENANT>__<NAME>` (the tenant id upper-cased, `-` as `_`), plus the
 * platform's public variables (non-secret values the platform itself publishes, such as the demo
 * backends' URLs). Nothing else: not `TOOLGATE_ADMIN_KEY`, not `DATABASE_URL`, not another
 * tenant's secrets — a tenant file may be written by a tenant admin through the API.
 */
export function tenantVariablePrefix(tenantId: string): string {
  return tenantEnvNamespace('connector', tenantId);
}

/** True when `name` is in the tenant's reserved namespace (the one rule of every secret family). */
export function isTenantVariable(tenantId: string, name: string): boolean {
  return isTenantEnvName('connector', tenantId, name);
}

/**
 * Another tenant whose variable namespace would be the same as `tenantId`'s (`a-b` and `a_b`), or
 * undefined. Tenant ids have no doubled separators, so one namespace is never a prefix of another.
 */
export function sharedVariableNamespace(tenantId: string, others: Iterable<string>): string | undefined {
  const prefix = tenantVariablePrefix(tenantId);
  for (const other of others) if (other !== tenantId && tenantVariablePrefix(other) === prefix) return other;
  return undefined;
}
