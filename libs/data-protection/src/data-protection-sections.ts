import { Injectable } from '@nestjs/common';
import { BindingResolver } from '@toolgate/tenancy';
import { tenantDataProtectionSchema, type TenantDataProtection } from './tenant-data-protection.js';

const EMPTY: TenantDataProtection = { recipients: {}, records: [] };

/** A tenant's row as the guard needs it: its connectors' blocks and its `dataProtection` section. */
export interface TenantDataProtectionView {
  readonly section: TenantDataProtection;
  readonly connectors: Readonly<Record<string, Record<string, unknown>>>;
}

/**
 * Each tenant's `dataProtection` section, parsed once per tenant row the resolver caches (a changed
 * file is a new row object), with the connectors' blocks that declare their own regions (ADR 047).
 */
@Injectable()
export class DataProtectionSections {
  private readonly parsed = new WeakMap<object, TenantDataProtection>();

  constructor(private readonly bindings: BindingResolver) {}

  async of(tenantId: string): Promise<TenantDataProtectionView> {
    const tenant = await this.bindings.tenant(tenantId);
    if (!tenant) return { section: EMPTY, connectors: {} };
    const settings = tenant.settings;
    let section = this.parsed.get(settings);
    if (!section) {
      // The tenant file was checked when it was saved; a section that no longer parses is none.
      const result = tenantDataProtectionSchema.safeParse(settings.dataProtection ?? {});
      section = result.success ? result.data : EMPTY;
      this.parsed.set(settings, section);
    }
    return { section, connectors: tenant.connectors ?? {} };
  }
}
