/**
 * What the platform lets a tenant file ask for at most (platform settings, not the tenant's):
 * a file above a ceiling is refused when it is saved — at boot, or imported through the admin API,
 * by a tenant admin or a platform admin alike (the platform admin raises the ceiling instead).
 */
export interface TenantFileCeilings {
  /** The largest `tokensPerDay` a tenant may set (`quotas.maxTokensPerDay`); null: none. */
  readonly maxTokensPerDay: number | null;
}

export const NO_CEILINGS: TenantFileCeilings = { maxTokensPerDay: null };
