import { Injectable } from '@nestjs/common';
import { BindingResolver } from '@toolgate/tenancy';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { ProcessingCounts } from './processing-counts.js';
import {
  isMainlandChina,
  tenantDataProtectionSchema,
  type ProcessingRecord,
} from './tenant-data-protection.js';

/** A processing record as the admin API shows it: the declaration, the recipient's region, the counts. */
export interface ProcessingRecordView extends ProcessingRecord {
  /** ISO 3166-1 alpha-2 as declared; null when the tenant file declares none. */
  readonly region: string | null;
  /** The recipient is outside mainland China (or of no declared region). */
  readonly crossBorder: boolean;
  /** The legal basis of the transfer, as declared (PIPL 第38条); null when none. */
  readonly crossBorderBasis: { readonly basis: string; readonly reference: string | null } | null;
  /** Calls of the tool that sent classified fields to the recipient, every gateway together. */
  readonly calls: number;
}

/** The processing records of a tenant (PIPL 第55–56条): what the tenant file declares, with counts. */
@Injectable()
export class ProcessingRecords {
  constructor(
    private readonly bindings: BindingResolver,
    private readonly counts: ProcessingCounts,
  ) {}

  /** The tenant's records; NOT_FOUND for a tenant that does not exist. */
  async of(tenantId: string): Promise<ProcessingRecordView[]> {
    const tenant = await this.bindings.tenant(tenantId);
    if (!tenant) throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `tenant ${tenantId}` } });
    const parsed = tenantDataProtectionSchema.safeParse(tenant.settings.dataProtection ?? {});
    if (!parsed.success) return [];
    const counted = new Map(
      (await this.counts.of(tenantId)).map((c) => [`${c.tool}\u0000${c.recipient}`, c]),
    );
    return parsed.data.records.map((r) => {
      const declared = parsed.data.recipients[r.recipient];
      const basis = declared?.crossBorder;
      return {
        ...r,
        region: declared?.region ?? null,
        crossBorder: !isMainlandChina(declared?.region),
        crossBorderBasis: basis ? { basis: basis.basis, reference: basis.reference ?? null } : null,
        calls: counted.get(`${r.tool}\u0000${r.recipient}`)?.calls ?? 0,
      };
    });
  }
}
