/**
 * The environment variables a tenant's configuration may name, by family: each tenant has its
 * own namespace in each, `TOOLGATE_<FAMILY>_<TENANT>__<NAME>` (the tenant id upper-cased, `-` as
 * `_`). Tenant ids have single separators only, so no tenant's namespace is the start of another's.
 * A tenant admin chooses where these values are sent (a connector's host is the platform's, but an
 * upstream's URL or a channel's is the tenant's), so a name outside the tenant's namespace would
 * let it mail itself another tenant's secret: every family is checked when saved and before use.
 */
export const SECRET_FAMILIES = {
  /** `${NAME}` placeholders in a tenant file's connector settings. */
  connector: 'TOOLGATE_T_',
  /** Notification channels' tokens and signing keys, Feishu callback keys. */
  notification: 'TOOLGATE_NOTIFY_',
  /** Upstream tool sources' auth header values. */
  upstream: 'TOOLGATE_UPSTREAM_',
} as const;
export type SecretFamily = keyof typeof SECRET_FAMILIES;

/** The longest variable name a tenant may name (what the stores keep). */
export const MAX_SECRET_ENV_LENGTH = 128;

const NAME_TAIL = /^[A-Z0-9_]+$/;

/**
 * The namespace of `tenantId`'s variables in `family`, e.g. `TOOLGATE_UPSTREAM_ACME__`.
 * @example tenantEnvNamespace('notification', 'north-east') // 'TOOLGATE_NOTIFY_NORTH_EAST__'
 */
export function tenantEnvNamespace(family: SecretFamily, tenantId: string): string {
  return `${SECRET_FAMILIES[family]}${tenantId.toUpperCase().replace(/-/g, '_')}__`;
}

/** Whether `name` is one of `tenantId`'s variables in `family`: its namespace, then `[A-Z0-9_]+`. */
export function isTenantEnvName(family: SecretFamily, tenantId: string, name: string): boolean {
  const namespace = tenantEnvNamespace(family, tenantId);
  return (
    name.length > namespace.length &&
    name.length <= MAX_SECRET_ENV_LENGTH &&
    name.startsWith(namespace) &&
    NAME_TAIL.test(name.slice(namespace.length))
  );
}

/**
 * The name `name` takes in `tenantId`'s namespace: what is after the family's prefix, in the
 * tenant's namespace (`TOOLGATE_UPSTREAM_CRM_TOKEN` → `TOOLGATE_UPSTREAM_ACME__CRM_TOKEN`). A name
 * already in the namespace is unchanged. For renaming names from before namespaces, and for
 * messages that say which name to use instead.
 */
export function namespacedEnvName(family: SecretFamily, tenantId: string, name: string): string {
  if (isTenantEnvName(family, tenantId, name)) return name;
  const prefix = SECRET_FAMILIES[family];
  const tail = name.startsWith(prefix) ? name.slice(prefix.length) : name;
  return `${tenantEnvNamespace(family, tenantId)}${tail}`;
}
