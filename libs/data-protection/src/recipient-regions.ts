import { Inject, Injectable } from '@nestjs/common';
import { connectorRegionOf } from '@toolgate/tenancy';
import type { ImplementationRecipient } from '@toolgate/toolkit';
import type { TenantDataProtectionView } from './data-protection-sections.js';
import { DATA_PROTECTION_OPTIONS, type DataProtectionOptions } from './data-protection.options.js';
import { isMainlandChina } from './tenant-data-protection.js';

/** Which record a recipient's region was read from. */
export type RegionSource = 'connector' | 'upstream' | 'model_provider' | 'recipients';

/** A recipient's region as the guard uses it. */
export interface ResolvedRegion {
  /** ISO 3166-1 alpha-2; null when no record declares one (outside mainland China: fail closed). */
  readonly region: string | null;
  readonly source: RegionSource | null;
  /** Nothing leaves the gateway (the built-in demo planner): never a transfer. */
  readonly inProcess: boolean;
}

/** The region of a tenant's upstream by name; undefined when the tenant has no upstream of that name. */
export type UpstreamRegionLookup = (tenantId: string, name: string) => Promise<string | null | undefined>;

/**
 * Where a recipient processes data, read from the record the data goes to (ADR 047): a connector's
 * block in the tenant file (`connectors.<name>.region`), an upstream's row (`region` at
 * registration), a model provider's settings (`models.providers.<name>.region`), and — for a name
 * none of those declares, or as a further declaration — the tenant file's
 * `dataProtection.recipients.<name>.region`. Declared differently in two places, the region outside
 * mainland China counts: no declaration can move a recipient home.
 */
@Injectable()
export class RecipientRegions {
  private upstreams?: UpstreamRegionLookup;

  constructor(@Inject(DATA_PROTECTION_OPTIONS) private readonly options: DataProtectionOptions) {}

  /** The gateway composes the upstreams lib's lookup here (this lib does not depend on that one). */
  lookUpUpstreamsWith(lookup: UpstreamRegionLookup): void {
    this.upstreams = lookup;
  }

  /**
   * The region of `name` for a tenant. `implementation`: the recipient a call's implementation
   * itself names (an imported upstream), already read from its record.
   */
  async of(
    tenantId: string,
    name: string,
    tenant: Pick<TenantDataProtectionView, 'section' | 'connectors'>,
    implementation?: ImplementationRecipient,
  ): Promise<ResolvedRegion> {
    const declared: { region: string; source: RegionSource }[] = [];
    const add = (region: string | null | undefined, source: RegionSource) => {
      if (region) declared.push({ region, source });
    };
    let known = false;
    if (implementation?.name === name) {
      known = true;
      add(implementation.region, 'upstream');
    }
    const connector = tenant.connectors[name];
    if (connector) {
      known = true;
      add(connectorRegionOf(connector), 'connector');
    }
    const provider = this.options.modelProviders[name];
    if (provider) {
      if (provider.inProcess) return { region: null, source: 'model_provider', inProcess: true };
      known = true;
      add(provider.region, 'model_provider');
    }
    if (!known && this.upstreams) add(await this.upstreams(tenantId, name), 'upstream');
    add(tenant.section.recipients[name]?.region, 'recipients');
    const chosen = declared.find((d) => !isMainlandChina(d.region)) ?? declared[0];
    return { region: chosen?.region ?? null, source: chosen?.source ?? null, inProcess: false };
  }
}
