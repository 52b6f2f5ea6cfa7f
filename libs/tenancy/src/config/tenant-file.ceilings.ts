import type { TenantFile } from './tenant-file.schema.js';

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

/** A setting of a file above its ceiling: where, and why. */
export interface CeilingProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** The file's settings above the platform's ceilings, each with its path. */
export function ceilingProblems(file: TenantFile, ceilings: TenantFileCeilings): CeilingProblem[] {
  const max = ceilings.maxTokensPerDay;
  if (max === null) return [];
  return (file.quotas ?? []).flatMap((q, i) =>
    'tokensPerDay' in q && q.tokensPerDay !== null && q.tokensPerDay > max
      ? [
          {
            path: ['quotas', i, 'tokensPerDay'],
            message: `${q.tokensPerDay} is above the platform's ceiling of ${max} tokens per day (quotas.maxTokensPerDay in toolgate.yaml); ask a platform admin`,
          },
        ]
      : [],
  );
}
