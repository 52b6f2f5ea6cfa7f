import type { TenantFileCeilings } from './config/tenant-file.ceilings.js';
import type { TenantSections } from './config/tenant-sections.js';

/** Settings of the tenancy lib. */
export interface TenancyOptions {
  /** The folder holding `tenants/*.yaml`. */
  readonly configDir: string;
  /** Load tenant files marked `demo: true`. */
  readonly demo: boolean;
  /**
   * Follow the tenant files (TOOLGATE_WATCH_TENANT_FILES): a file changed while the gateway runs,
   * or while it was stopped, is re-imported as a new version when nobody changed that tenant
   * through the console or the API since the file's last import; otherwise the log says why not
   * and what to run (ADR 029). Off or absent: a file is imported only when its tenant first appears.
   */
  readonly watchFiles?: boolean;
  /**
   * How long resolved bindings are reused before the database is asked again. A change saved on
   * another gateway is seen within this time; on the saving gateway at once.
   */
  readonly bindingCacheTtlMs: number;
  /** What the platform lets a tenant file ask for at most (a file above is refused when saved). */
  readonly ceilings?: TenantFileCeilings;
  /**
   * The sections of a tenant file besides its own fields, each a lib's (`audit`, `approvals`,
   * `quotas`, `notifications`): the gateway composes them (ADR 031).
   */
  readonly sections: TenantSections;
  /**
   * The trail's retention floor a tenant's settings add above the platform's (the gateway reads
   * the tenant file's `compliance` section, ADR 048); absent or undefined: none.
   */
  readonly retentionFloorOf?: (settings: Readonly<Record<string, unknown>>) => number | undefined;
}

/** The defaults of the settings file (`config/toolgate.yaml` shows them; a spec keeps the two equal). */
export const DEFAULT_TENANCY_OPTIONS: Pick<TenancyOptions, 'bindingCacheTtlMs'> = {
  bindingCacheTtlMs: 1_000,
};

export const TENANCY_OPTIONS = Symbol('TENANCY_OPTIONS');
