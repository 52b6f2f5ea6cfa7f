import { Injectable } from '@nestjs/common';
import { BindingResolver } from '@toolgate/tenancy';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { DataProtectionSections } from './data-protection-sections.js';
import { ProcessingCounts } from './processing-counts.js';
import { RecipientRegions, type RegionSource } from './recipient-regions.js';
import { isMainlandChina, type ProcessingRecord } from './tenant-data-protection.js';

/** A processing record as the admin API shows it: the declaration, the recipient's region, the counts. */
export interface ProcessingRecordView extends ProcessingRecord {
  /** ISO 3166-1 alpha-2 as declared; null when no record declares one. */
  readonly region: string | null;
  /** The record the region was read from (ADR 047); null when none declares one. */
  readonly regionSource: RegionSource | null;
  /** The recipient is outside mainland China (or of no declared region). */
  readonly crossBorder: boolean;
  /** The legal basis of the transfer, as declared (PIPL 第38条); null when none. */
  readonly crossBorderBasis: { readonly basis: string; readonly reference: string | null } | null;
  /** Calls of the tool that sent classified fields to the recipient, every gateway together. */
  readonly calls: number;
  /** When a call was last counted (ISO 8601); null when none was. */
  readonly lastCountedAt: string | null;
}

/** The processing records of a tenant (PIPL 第55–56条): what the tenant file declares, with counts. */
@Injectable()
export class ProcessingRecords {
  constructor(
    private readonly bindings: BindingResolver,
    private readonly sections: DataProtectionSections,
    private readonly regions: RecipientRegions,
    private readonly counts: ProcessingCounts,
  ) {}

  /** The tenant's records; NOT_FOUND for a tenant that does not exist. */
  async of(tenantId: string): Promise<ProcessingRecordView[]> {
    const tenant = await this.bindings.tenant(tenantId);
    if (!tenant) throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `tenant ${tenantId}` } });
    const view = await this.sections.of(tenantId);
    const counted = new Map(
      (await this.counts.of(tenantId)).map((c) => [`${c.tool}\u0000${c.recipient}`, c]),
    );
    return Promise.all(
      view.section.records.map(async (r) => {
        const basis = view.section.recipients[r.recipient]?.crossBorder;
        const { region, source, inProcess } = await this.regions.of(tenantId, r.recipient, view);
        const count = counted.get(`${r.tool}\u0000${r.recipient}`);
        return {
          ...r,
          region,
          regionSource: source,
          crossBorder: !inProcess && !isMainlandChina(region ?? undefined),
          crossBorderBasis: basis ? { basis: basis.basis, reference: basis.reference ?? null } : null,
          calls: count?.calls ?? 0,
          lastCountedAt: count?.lastCountedAt?.toISOString() ?? null,
        };
      }),
    );
  }
}
