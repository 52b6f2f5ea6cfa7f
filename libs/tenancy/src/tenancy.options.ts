import type { TenantFileCeilings } from './config/tenant-file.ceilings.js';

/** Settings of the tenancy lib. */
export interface TenancyOptions {
  /** The folder holding `tenants/*.yaml`. */
  readonly configDir: string;
  /** Load tenant files marked `demo: true`. */
  readonly demo: boolean;
  /**
   * How long resolved bindings are reused before the database is asked again. A change saved on
   * another gateway is seen within this time; on the saving gateway at once.
   */
  readonly bindingCacheTtlMs: number;
  /** What the platform lets a tenant file ask for at most (a file above is refused when saved). */
  readonly ceilings?: TenantFileCeilings;
}

/** The defaults of the settings file (`config/toolgate.yaml` shows them; a spec keeps the two equal). */
export const DEFAULT_TENANCY_OPTIONS: Pick<TenancyOptions, 'bindingCacheTtlMs'> = {
  bindingCacheTtlMs: 1_000,
};

export const TENANCY_OPTIONS = Symbol('TENANCY_OPTIONS');
