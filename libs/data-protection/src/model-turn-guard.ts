import { Injectable } from '@nestjs/common';
import { ErrorCode, errorEnvelope, type ErrorEnvelope, type Locale } from '@toolgate/toolkit';
import { DataProtectionSections } from './data-protection-sections.js';
import { ProcessingCounts } from './processing-counts.js';
import { RecipientRegions } from './recipient-regions.js';
import { isMainlandChina } from './tenant-data-protection.js';

/** A tool whose result, holding values in classified fields, a model turn carries. */
export interface ClassifiedResult {
  readonly tool: string;
  /** Carried for the first time in this turn (counted once: later turns repeat the conversation). */
  readonly fresh: boolean;
}

/**
 * The cross-border guard on agent runs' model turns (PIPL 第38–40条, ADR 047). A turn that carries
 * tool results with values in classified output fields sends that personal information to the
 * run's model provider. Under `compliance.profile: dengbao3` (or the tenant file's `crossBorderGuard`,
 * ADR 048), a provider outside mainland China (or
 * of no declared region: `models.providers.<name>.region`) without a legal basis in the tenant file
 * (`dataProtection.recipients.<provider>.crossBorder`) refuses the turn with `DATA_EXPORT_BLOCKED`;
 * a turn that passes counts each tool's first carried result for (tool, provider), beside the calls.
 */
@Injectable()
export class ModelTurnGuard {
  constructor(
    private readonly sections: DataProtectionSections,
    private readonly regions: RecipientRegions,
    private readonly counts: ProcessingCounts,
  ) {}

  /** The refusal of the turn, or null when it may go to `provider` (then counted). */
  async check(
    tenantId: string,
    provider: string,
    carried: readonly ClassifiedResult[],
    locale: Locale,
  ): Promise<ErrorEnvelope | null> {
    if (!carried.length) return null;
    const tenant = await this.sections.of(tenantId);
    const { region, inProcess } = await this.regions.of(tenantId, provider, tenant);
    if (inProcess) return null;
    const outside = !isMainlandChina(region ?? undefined);
    const basis = tenant.section.recipients[provider]?.crossBorder;
    if (tenant.compliance.crossBorderGuard && outside && !basis)
      return errorEnvelope(
        ErrorCode.DATA_EXPORT_BLOCKED,
        locale,
        { recipient: provider, region: region ?? '?' },
        { recipient: provider, region, tools: [...new Set(carried.map((c) => c.tool))] },
      );
    for (const c of carried) if (c.fresh) this.counts.count(tenantId, c.tool, provider, outside);
    return null;
  }
}
