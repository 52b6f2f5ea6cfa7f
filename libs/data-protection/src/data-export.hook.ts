import { Inject, Injectable } from '@nestjs/common';
import { BindingResolver } from '@toolgate/tenancy';
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
import { DATA_PROTECTION_OPTIONS, type DataProtectionOptions } from './data-protection.options.js';
import { ProcessingCounts } from './processing-counts.js';
import {
  isMainlandChina,
  tenantDataProtectionSchema,
  type TenantDataProtection,
} from './tenant-data-protection.js';

const EMPTY: TenantDataProtection = { recipients: {}, records: [] };

/**
 * The cross-border guard and the processing counter (PIPL 第38–40, 55–56条; ADR 040). A call whose
 * input carries classified fields goes to the recipients its tool's processing records name (the
 * tenant file's `dataProtection.records`). Under `compliance.profile: dengbao3`, a recipient outside
 * mainland China (or of no declared region) without a declared legal basis refuses the call with
 * `DATA_EXPORT_BLOCKED` before anything runs or is approved; a call that passes is counted per
 * recipient. After the quotas, before the approval gate: nobody is asked to approve an export that
 * is not allowed.
 */
@Injectable()
@ToolCallHookProvider({ order: HookOrder.QUOTAS + 10 })
export class DataExportHook implements ToolCallHook {
  /** Parsed sections by the settings object the resolver caches (a changed file is a new object). */
  private readonly parsed = new WeakMap<object, TenantDataProtection>();

  constructor(
    private readonly bindings: BindingResolver,
    private readonly counts: ProcessingCounts,
    @Inject(DATA_PROTECTION_OPTIONS) private readonly options: DataProtectionOptions,
  ) {}

  beforeExecute(call: ToolCall): Promise<ToolCallStop | undefined> | undefined {
    const tenantId = call.request.tenant?.id;
    // The common case (a tool with no classified field) answers without a promise.
    if (!tenantId || call.tool.contract.sensitivePaths.length === 0) return undefined;
    return this.check(call, tenantId);
  }

  private async check(call: ToolCall, tenantId: string): Promise<ToolCallStop | undefined> {
    if (!sendsClassifiedFields(call)) return undefined;
    const section = await this.sectionOf(tenantId);
    const tool = call.tool.contract.name;
    const recipients = [...new Set(section.records.filter((r) => r.tool === tool).map((r) => r.recipient))];
    const verdicts = recipients.map((recipient) => {
      const declared = section.recipients[recipient];
      const outside = !isMainlandChina(declared?.region);
      return { recipient, region: declared?.region, outside, allowed: !outside || !!declared?.crossBorder };
    });
    const blocked = this.options.profile === 'dengbao3' && verdicts.find((v) => !v.allowed);
    if (blocked)
      return {
        envelope: errorEnvelope(
          ErrorCode.DATA_EXPORT_BLOCKED,
          call.request.locale,
          { recipient: blocked.recipient, region: blocked.region ?? '?' },
          { recipient: blocked.recipient, region: blocked.region ?? null },
        ),
      };
    for (const v of verdicts) this.counts.count(tenantId, tool, v.recipient, v.outside);
    return undefined;
  }

  private async sectionOf(tenantId: string): Promise<TenantDataProtection> {
    const settings = (await this.bindings.tenant(tenantId))?.settings;
    if (!settings) return EMPTY;
    let section = this.parsed.get(settings);
    if (!section) {
      // The tenant file was checked when it was saved; a section that no longer parses is none.
      const result = tenantDataProtectionSchema.safeParse(settings.dataProtection ?? {});
      section = result.success ? result.data : EMPTY;
      this.parsed.set(settings, section);
    }
    return section;
  }
}
