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
}

export const TENANCY_OPTIONS = Symbol('TENANCY_OPTIONS');
