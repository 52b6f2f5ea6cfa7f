import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, ToolgateError, type CallPrincipal } from '@toolgate/toolkit';
import type { ToolCallEntity } from '../entities/tool-call.entity.js';
import { CallRecords } from './call-records.js';
import { toCallView, type CallView } from './call-view.js';

/** A reader of calls: agent keys may be limited to some agent types. */
export type CallReader = CallPrincipal & { readonly agentTypes?: readonly string[] | null };

/**
 * What the reader needs of the audit lib: a tenant's redactor, the one its trail stores results
 * with. The audit lib provides it under `CALL_RESULT_REDACTION` (it imports this lib; this lib
 * never imports it back, ADR 031).
 */
export interface CallResultRedaction {
  redactorFor(tenantId: string): Promise<{ redact(value: unknown): unknown }>;
  /**
   * An ended call's envelope as it may be stored (ADR 036): redacted by the tool's marked output
   * fields where the tool is known, by value otherwise, and capped.
   */
  storedEnvelope(tenantId: string, tool: string | undefined, envelope: unknown): Promise<unknown>;
}

/** The token of the `CallResultRedaction` the audit lib provides. */
export const CALL_RESULT_REDACTION = Symbol('CALL_RESULT_REDACTION');

/** Statuses of a call that ended: its record holds the redacted envelope (ADR 036). */
const ENDED = new Set(['succeeded', 'failed', 'denied', 'expired', 'interrupted']);

/** Roles that see every call of their tenant in full, while it may still run. */
const FULL_VIEW_ROLES = new Set(['platform_admin', 'tenant_admin']);

/**
 * `GET /v1/calls/:callId`. The record as stored goes to the principal that asked and to admins —
 * once the call ended that is its redacted result (ADR 036); other readers of the tenant (auditors,
 * approvers, other agent keys) get it redacted the way the audit trail stores it; an agent key
 * limited to other agent types, and every other tenant, get 404.
 */
@Injectable()
export class CallReaderService {
  constructor(
    private readonly calls: CallRecords,
    @Inject(CALL_RESULT_REDACTION) private readonly redaction: CallResultRedaction,
  ) {}

  async view(reader: CallReader, callId: string): Promise<CallView & { redacted?: true }> {
    const call = await this.visible(reader, callId);
    const view = toCallView(call);
    if (FULL_VIEW_ROLES.has(reader.role ?? '') || call.principal.principalId === reader.principalId)
      // An ended call's record keeps its result redacted (ADR 036): whoever reads it is told so.
      return 'result' in view && ENDED.has(call.status) ? { ...view, redacted: true } : view;
    if (!('result' in view)) return { ...view, redacted: true };
    const redactor = await this.redaction.redactorFor(call.tenantId);
    return { ...view, result: redactor.redact(view.result) as typeof view.result, redacted: true };
  }

  private async visible(reader: CallReader, callId: string): Promise<ToolCallEntity> {
    const tenantless = reader.tenantId === null || reader.tenantId === undefined;
    const mayReadAll = tenantless && (reader.role === 'platform_admin' || reader.role === 'auditor');
    const call = mayReadAll
      ? await this.calls.findInAnyTenant(callId)
      : tenantless
        ? null
        : await this.calls.find({ tenantId: reader.tenantId!, callId });
    const limited = reader.role === 'agent' && reader.agentTypes?.length;
    if (!call || (limited && !reader.agentTypes!.includes(call.agentType ?? ''))) {
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `call ${callId}` } });
    }
    return call;
  }
}
