import { Injectable } from '@nestjs/common';
import {
  HookOrder,
  ToolCallHookProvider,
  type ToolCall,
  type ToolCallHook,
  type ToolCallStop,
} from '@toolgate/toolkit';
import { CallQuotas } from './call-quotas.js';

/**
 * Per-tenant and per-key call quotas from the tenant file (`quotas:`), checked before anything
 * else of a call happens. Over the limit the call answers 429 RATE_LIMITED with `Retry-After`.
 */
@Injectable()
@ToolCallHookProvider({ order: HookOrder.QUOTAS })
export class QuotaHook implements ToolCallHook {
  constructor(private readonly quotas: CallQuotas) {}

  beforeExecute(call: ToolCall): Promise<ToolCallStop | undefined> | undefined {
    const tenantId = call.request.tenant?.id;
    if (!tenantId) return undefined;
    const refused = this.quotas.take({
      tenantId,
      principalId: call.request.principal?.principalId,
      tool: call.tool.contract.name,
      face: call.request.face,
      locale: call.request.locale,
    });
    // The common case (no call quotas) answers without a promise.
    return refused?.then((envelope) => (envelope ? { envelope } : undefined));
  }
}
