import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  errorEnvelope,
  HookOrder,
  ToolCallHookProvider,
  type ToolCall,
  type ToolCallHook,
  type ToolCallStop,
} from '@toolgate/toolkit';
import { sendsClassifiedFields } from './classified-fields.js';
import { DataProtectionSections } from './data-protection-sections.js';
import { ProcessingCounts } from './processing-counts.js';
import { RecipientRegions } from './recipient-regions.js';
import { isMainlandChina } from './tenant-data-protection.js';

/**
 * The cross-border guard and the processing counter (PIPL 第38–40, 55–56条; ADR 040, 047). A call
 * whose input carries classified fields goes to the recipients its tool's processing records name
 * (the tenant file's `dataProtection.records`) and, for an imported tool, to its upstream server
 * whether a record names it or not. Each recipient's region is read from its own record (ADR 047).
 * Under `compliance.profile: dengbao3`, or for a tenant whose file adds `crossBorderGuard` (ADR 048),
 * a recipient outside mainland China (or of no declared region) without a declared legal basis refuses the call with `DATA_EXPORT_BLOCKED` before
 * anything runs or is approved; a call that passes is counted per recipient. After the quotas,
 * before the approval gate: nobody is asked to approve an export that is not allowed.
 */
@Injectable()
@ToolCallHookProvider({ order: HookOrder.QUOTAS + 10 })
export class DataExportHook implements ToolCallHook {
  constructor(
    private readonly sections: DataProtectionSections,
    private readonly regions: RecipientRegions,
    private readonly counts: ProcessingCounts,
  ) {}

  beforeExecute(call: ToolCall): Promise<ToolCallStop | undefined> | undefined {
    const tenantId = call.request.tenant?.id;
    // The common case (a tool with no classified field) answers without a promise.
    if (!tenantId || call.tool.contract.sensitivePaths.length === 0) return undefined;
    return this.check(call, tenantId);
  }

  private async check(call: ToolCall, tenantId: string): Promise<ToolCallStop | undefined> {
    if (!sendsClassifiedFields(call)) return undefined;
    const tenant = await this.sections.of(tenantId);
    const tool = call.tool.contract.name;
    const own = call.tool.implementation.recipient;
    const recipients = [
      ...new Set([
        ...(own ? [own.name] : []),
        ...tenant.section.records.filter((r) => r.tool === tool).map((r) => r.recipient),
      ]),
    ];
    const verdicts = await Promise.all(
      recipients.map(async (recipient) => {
        const { region, inProcess } = await this.regions.of(tenantId, recipient, tenant, own);
        const outside = !inProcess && !isMainlandChina(region ?? undefined);
        const basis = tenant.section.recipients[recipient]?.crossBorder;
        return { recipient, region, outside, allowed: !outside || !!basis };
      }),
    );
    const blocked = tenant.compliance.crossBorderGuard && verdicts.find((v) => !v.allowed);
    if (blocked)
      return {
        envelope: errorEnvelope(
          ErrorCode.DATA_EXPORT_BLOCKED,
          call.request.locale,
          { recipient: blocked.recipient, region: blocked.region ?? '?' },
          { recipient: blocked.recipient, region: blocked.region },
        ),
      };
    for (const v of verdicts) this.counts.count(tenantId, tool, v.recipient, v.outside);
    return undefined;
  }
}
