import { Inject, Injectable } from '@nestjs/common';
import { BindingResolver } from '@toolgate/tenancy';
import { DATA_PROTECTION_OPTIONS, type DataProtectionOptions } from './data-protection.options.js';
import { effectiveCompliance, type EffectiveCompliance } from './tenant-compliance.js';
import { tenantDataProtectionSchema, type TenantDataProtection } from './tenant-data-protection.js';

const EMPTY: TenantDataProtection = { recipients: {}, records: [] };

/** A tenant's row as the guard needs it: its connectors' blocks and its `dataProtection` section. */
export interface TenantDataProtectionView {
  readonly section: TenantDataProtection;
  readonly connectors: Readonly<Record<string, Record<string, unknown>>>;
  /** The parts of the profile that apply to the tenant: the platform's and its file's (ADR 048). */
  readonly compliance: EffectiveCompliance;
}

interface Parsed {
  readonly section: TenantDataProtection;
  readonly compliance: EffectiveCompliance;
}

/**
 * Each tenant's `dataProtection` section and effective compliance profile, resolved once per
 * tenant row the resolver caches (a changed file is a new row object: not once per call), with the
 * connectors' blocks that declare their own regions (ADR 047, 048).
 */
@Injectable()
export class DataProtectionSections {
  private readonly parsed = new WeakMap<object, Parsed>();
  private readonly platformOnly: EffectiveCompliance;

  constructor(
    private readonly bindings: BindingResolver,
    @Inject(DATA_PROTECTION_OPTIONS) private readonly options: DataProtectionOptions,
  ) {
    this.platformOnly = effectiveCompliance(options.profile, undefined);
  }

  async of(tenantId: string): Promise<TenantDataProtectionView> {
    const tenant = await this.bindings.tenant(tenantId);
    if (!tenant) return { section: EMPTY, connectors: {}, compliance: this.platformOnly };
    const settings = tenant.settings;
    let parsed = this.parsed.get(settings);
    if (!parsed) {
      // The tenant file was checked when it was saved; a section that no longer parses is none.
      const result = tenantDataProtectionSchema.safeParse(settings.dataProtection ?? {});
      parsed = {
        section: result.success ? result.data : EMPTY,
        compliance: effectiveCompliance(this.options.profile, complianceOf(settings)),
      };
      this.parsed.set(settings, parsed);
    }
    return { ...parsed, connectors: tenant.connectors ?? {} };
  }
}

/** The tenant's `compliance` section as stored (checked at save; only known keys are read). */
export function complianceOf(
  settings: Readonly<Record<string, unknown>>,
): Record<string, unknown> | undefined {
  const c = settings.compliance;
  return c !== null && typeof c === 'object' && !Array.isArray(c)
    ? (c as Record<string, unknown>)
    : undefined;
}
