import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { AuditTrail, PLATFORM_TENANT, runContextOf, TenantRedaction } from '@toolgate/audit';
import { newCallRecord, principalOf } from '@toolgate/calls';
import { InstanceRegistry } from '@toolgate/database';
import { currentTraceId, currentTraceparent } from '@toolgate/telemetry';
import { BindingResolver } from '@toolgate/tenancy';
import {
  canonicalJson,
  cleanErrorMessage,
  ErrorCode,
  errorEnvelope,
  guardrailFindingsOf,
  HookOrder,
  humanizeToolName,
  policyDecisionDetails,
  policyDecisionOf,
  sha256Hex,
  ToolCallHookProvider,
  uuidv7,
  type ApprovalMode,
  type ToolCall,
  type ToolCallHook,
  type ToolCallStop,
} from '@toolgate/toolkit';
import { APPROVALS_OPTIONS, type ApprovalsOptions } from '../approvals.options.js';
import { ApprovalEntity } from '../entities/approval.entity.js';
import { ApprovalEvents } from './approval-events.js';
import { ApprovalRepository } from './approval.repository.js';
import { tenantApprovalSettingsSchema } from './tenant-approval-settings.js';

/** `{ traceId }` of the active trace for an event's details (ADR 019), or nothing when not tracing. */
function traceIdDetail(): { traceId?: string } {
  const traceId = currentTraceId();
  return traceId ? { traceId } : {};
}

/** The digest an approval is bound to: the tool, its implementation and the validated input. */
export function actionDigest(tool: string, implementation: string, input: unknown): string {
  return sha256Hex(canonicalJson({ tool, implementation, input }));
}

/**
 * The approval step of the pipeline (docs/tool-design-rules.md §4.4): after validation, before audit and execute.
 * A call that needs a person parks — its record and approval stored, nothing run, no compute held
 * — and answers APPROVAL_PENDING. L3 always asks; a binding may add approval, never remove it.
 */
@Injectable()
@ToolCallHookProvider({ order: HookOrder.APPROVAL })
export class ApprovalGate implements ToolCallHook {
  private readonly logger = new Logger('ApprovalGate');

  constructor(
    private readonly approvals: ApprovalRepository,
    private readonly bindings: BindingResolver,
    private readonly redaction: TenantRedaction,
    private readonly audit: AuditTrail,
    private readonly instances: InstanceRegistry,
    @Inject(APPROVALS_OPTIONS) private readonly options: ApprovalsOptions,
    @Optional() private readonly events?: ApprovalEvents,
  ) {}

  // Not async on purpose: calls that need no approval must not pay for a promise.
  beforeExecute(call: ToolCall): Promise<ToolCallStop | undefined> | undefined {
    if (call.request.approval) return undefined; // resuming a call a person approved
    // A tenant's rule that requires approval asks for this call, whatever the tool's mode (issue 26).
    // So does a content guardrail that found what its input check asks a person about (ADR 045).
    const ruled =
      policyDecisionOf(call)?.then === 'require_approval' ||
      (call.tool.guardrails !== undefined &&
        guardrailFindingsOf(call).some((f) => f.action === 'require_approval'));
    const mode: ApprovalMode =
      call.tool.contract.risk.level === 'L3' || ruled ? 'always' : call.tool.approval;
    return mode === 'never' ? undefined : this.gate(call, mode);
  }

  private grantKey(call: ToolCall): string {
    const key = call.tool.contract.approvalKey;
    return key ? String(key(call.input)).slice(0, 200) : call.tool.contract.name;
  }

  private async gate(call: ToolCall, mode: ApprovalMode): Promise<ToolCallStop | undefined> {
    const tenantId = call.request.tenant?.id ?? PLATFORM_TENANT;
    const sessionId = call.ctx.session.id;
    const grantKey = this.grantKey(call);
    if (
      mode === 'once' &&
      (await this.approvals.hasGrant(
        { tenantId, principalId: principalOf(call.request.principal).principalId, sessionId },
        call.tool.contract.name,
        grantKey,
        new Date(),
      ))
    ) {
      return undefined;
    }
    const approvalId = `apr_${uuidv7().replace(/-/g, '')}`;
    await this.park(call, { tenantId, sessionId, grantKey, approvalId, mode });
    this.events?.requested({ tenantId, approvalId, callId: call.id });
    const envelope = errorEnvelope(ErrorCode.APPROVAL_PENDING, call.request.locale, { callId: call.id });
    return { envelope: { ...envelope, callId: call.id, approvalId } };
  }

  private async park(
    call: ToolCall,
    p: { tenantId: string; sessionId: string; grantKey: string; approvalId: string; mode: ApprovalMode },
  ) {
    const now = new Date();
    const contract = call.tool.contract;
    const redactor = await this.redaction.redactorFor(p.tenantId);
    // The approver, the inbox API and the hash-chained events (which can never be scrubbed) all
    // see the input as the audit trail stores it: schema-marked fields and secret keys sealed.
    const redacted = redactor.redact(call.input, contract.sensitivePaths, contract.redactNames);
    // Stored (approval, event, the call record's copy for when it ends) capped like every input.
    const inputRedacted = redactor.cap(redacted);
    const { text, error: promptError } = this.prompt(call, redacted);
    const prompt = redactor.redactText(text, contract.redactNames).slice(0, 2000);
    const digest = actionDigest(contract.name, call.tool.implementation.name, call.input);
    const platformRequired = contract.risk.level === 'L3' && (await this.twoApprovers(p.tenantId)) ? 2 : 1;
    // A rule only tightens: the larger approver count and the shorter expiry win.
    const ruled = policyDecisionOf(call);
    const required = Math.max(platformRequired, ruled?.approvers ?? 1);
    const expiryMs = Math.min(this.options.expiryMs, ruled?.expiresInMs ?? this.options.expiryMs);
    const record = newCallRecord(call, this.instances.instanceId, {
      approvalId: p.approvalId,
      approvalMode: p.mode,
      inputDigest: digest,
      traceparent: currentTraceparent() ?? null,
      inputRedacted,
    });
    const principal = record.principal;
    const approval = Object.assign(new ApprovalEntity(), {
      id: p.approvalId,
      callId: call.id,
      tenantId: p.tenantId,
      agentType: call.request.agentType,
      tool: contract.name,
      implementation: call.tool.implementation.name,
      riskLevel: contract.risk.level,
      sessionId: p.sessionId,
      inputDigest: digest,
      inputRedacted,
      prompt,
      promptError,
      requestedBy: principal.principalId,
      status: 'pending' as const,
      mode: p.mode,
      grantKey: p.grantKey,
      required,
      approverGroup: ruled?.approverGroup ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + expiryMs),
      decidedAt: null,
    });
    await this.approvals.park(record, approval, (em) =>
      this.audit.recordIn(em, [
        {
          event: 'approval_requested',
          tenantId: p.tenantId,
          actor: { type: principal.principalType, id: principal.principalId },
          callId: call.id,
          tool: contract.name,
          implementation: call.tool.implementation.name,
          riskLevel: contract.risk.level,
          agentType: call.request.agentType,
          sessionId: p.sessionId,
          redactedInput: inputRedacted,
          details: {
            approvalId: p.approvalId,
            prompt,
            ...(promptError ? { promptError } : {}),
            mode: p.mode,
            required,
            ...(approval.approverGroup ? { approverGroup: approval.approverGroup } : {}),
            expiresAt: approval.expiresAt.toISOString(),
            inputDigest: digest,
            ...policyDecisionDetails(call),
            ...runContextOf(call),
            ...traceIdDetail(),
          },
        },
      ]),
    );
  }

  /**
   * The text the approver reads. A tool's own `prompt` gets the redacted input: what the approver
   * may see, never a secret. A prompt that throws is reported (log, approval, audit event) and the
   * generic text stands in, so the approver still decides on the redacted input.
   */
  private prompt(call: ToolCall, inputRedacted: unknown): { text: string; error: string | null } {
    const generic = `${humanizeToolName(call.tool.contract.name)}: ${JSON.stringify(inputRedacted)}`;
    const custom = call.tool.contract.approval.prompt;
    if (!custom) return { text: generic, error: null };
    let text: unknown;
    try {
      text = custom({ input: inputRedacted });
    } catch (err) {
      const error = `the tool's approval prompt failed: ${cleanErrorMessage((err as Error)?.message ?? String(err), 300)}`;
      this.logger.error(`${call.tool.contract.name}: ${error}`);
      return { text: generic, error };
    }
    if (typeof text === 'string' && text.trim()) return { text, error: null };
    const error = "the tool's approval prompt returned no text";
    this.logger.error(`${call.tool.contract.name}: ${error}`);
    return { text: generic, error };
  }

  private async twoApprovers(tenantId: string): Promise<boolean> {
    const tenant = await this.bindings.tenant(tenantId);
    const parsed = tenantApprovalSettingsSchema.safeParse(tenant?.settings.approvals ?? {});
    return parsed.success && parsed.data.twoApproversForL3;
  }
}
