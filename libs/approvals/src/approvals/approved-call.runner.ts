import type { ToolGuardrails, ToolRule } from '@toolgate/contract/rules';
import { Injectable, Logger } from '@nestjs/common';
import { PrincipalStanding, standingLostEnvelope } from '@toolgate/auth';
import { InstanceRegistry } from '@toolgate/database';
import { BindingResolver, TenantConnectors } from '@toolgate/tenancy';
import { errorEnvelope, ErrorCode, ToolExecutor } from '@toolgate/toolkit';
import { CallRecords, type CallRef, localeOfCall, principalOf, type ToolCallEntity } from '@toolgate/calls';
import type { ApprovalDecisionEntity } from '../entities/approval-decision.entity.js';
import type { ApprovalEntity } from '../entities/approval.entity.js';
import { actionDigest } from './approval-gate.hook.js';
import { ApprovalRepository } from './approval.repository.js';
import { inParkedCallTrace } from './parked-call-trace.js';

/** An approval and its decisions as the decision's transaction left them. */
export interface KnownApproval {
  readonly approval: ApprovalEntity;
  readonly decisions: readonly ApprovalDecisionEntity[];
}

/**
 * Runs an approved call exactly once, on whichever gateway claims it first: the stored validated
 * input, checked against the digest the approval was bound to, for the principal who asked, with
 * the approver as `ctx.approval.responder`.
 */
@Injectable()
export class ApprovedCallRunner {
  private readonly logger = new Logger(ApprovedCallRunner.name);

  constructor(
    private readonly calls: CallRecords,
    private readonly approvals: ApprovalRepository,
    private readonly resolver: BindingResolver,
    private readonly executor: ToolExecutor,
    private readonly connectors: TenantConnectors,
    private readonly instances: InstanceRegistry,
    private readonly standing: PrincipalStanding,
  ) {}

  /**
   * Claims and runs the call if nobody has; answers the call record as it stands afterwards.
   * `known`: its approval and decisions as the caller just wrote them (else read here);
   * `claimed`: told once the claim is settled, won or lost.
   */
  async run(ref: CallRef, known?: KnownApproval, claimed?: () => void): Promise<ToolCallEntity | null> {
    // The record's stored request (input, principal, tool) does not change with the claim, nor do
    // the tenant's tools: read them beside the claim rather than after it (round trips on the
    // approver's wait). The tools are read fresh: see execute.
    const tenantTools = this.resolver.lookupFor(ref.tenantId);
    tenantTools.catch(() => undefined); // a lost claim never reads it; execute reports it otherwise
    const [won, record] = await Promise.all([
      this.calls.claim(ref, this.instances.instanceId).finally(claimed),
      this.calls.find(ref),
    ]);
    if (won && record) {
      try {
        // In the trace the call was parked in, after its approval-wait span (ADR 019).
        await inParkedCallTrace(record, () => this.execute(record, known, tenantTools));
      } catch (err) {
        this.logger.error(`approved call ${ref.callId} could not run`, err as Error);
        await this.calls.fail(ref, errorEnvelope(ErrorCode.INTERNAL_ERROR, localeOfCall(record)));
      }
    }
    return this.calls.find(ref);
  }

  private async execute(
    record: ToolCallEntity,
    known: KnownApproval | undefined,
    tenantTools: ReturnType<BindingResolver['lookupFor']>,
  ): Promise<void> {
    const locale = localeOfCall(record);
    const ref = { tenantId: record.tenantId, callId: record.callId };
    // Independent reads, side by side (most are cached; the first of a tenant's is not).
    const [approval, lookup, agentType, connectors, holds] = await Promise.all([
      known?.approval.id === record.approvalId
        ? known.approval
        : record.approvalId
          ? this.approvals.find(record.approvalId)
          : null,
      // The registry plus the tenant's own (imported) tools; one blocked since the request (its
      // upstream definition changed, or it was removed) does not run on an old approval.
      tenantTools,
      record.agentType ? this.resolver.agentType(record.tenantId, record.agentType) : undefined,
      this.connectors.forTenant(record.tenantId),
      // The key that asked may have been revoked while its call waited: then it does not run.
      this.standing.stillValid(record.principal),
    ]);
    const contract = lookup.get(record.tool);
    const implementation = contract?.implementations.get(record.implementation);
    const blocked = agentType?.blocked?.get(record.tool);
    if (!approval || approval.tenantId !== record.tenantId || !contract || !implementation || blocked) {
      const params = { tool: record.tool, agentType: record.agentType };
      await this.calls.fail(
        ref,
        blocked
          ? errorEnvelope(blocked.code, locale, params, { tool: record.tool, reason: blocked.reason })
          : errorEnvelope(ErrorCode.TOOL_NOT_FOUND, locale, params),
      );
      return;
    }
    if (!holds) {
      await this.calls.fail(ref, {
        ...standingLostEnvelope(record.principal, locale),
        callId: record.callId,
      });
      return;
    }
    if (actionDigest(record.tool, record.implementation, record.input) !== approval.inputDigest) {
      // Someone changed the stored input after the approval: run nothing.
      await this.calls.fail(ref, {
        error: 'The stored input no longer matches what was approved; nothing was run',
        code: 'APPROVAL_MISMATCH',
        suggestedAction: 'Invoke the tool again to ask for a new approval',
      });
      return;
    }
    const decisions =
      known?.approval === approval ? known.decisions : await this.approvals.decisionsOf([approval.id]);
    const approver = [...decisions].reverse().find((d) => d.decision === 'approve');
    const principal = principalOf(record.principal);
    await this.executor.run({
      tool: {
        contract,
        implementation,
        timeoutMs: record.timeoutMs,
        approval: record.approvalMode as never,
        bindingVersion: record.bindingVersion,
        // The binding's rules: only a mask rule's result fields act on an approved call (PolicyHook).
        ...(rulesOf(agentType, record.tool) ?? {}),
        ...(guardrailsOf(agentType, record.tool) ?? {}),
      },
      input: record.input,
      tenant: { id: record.tenantId },
      agentType: record.agentType,
      principal,
      initiator: principal,
      sessionId: record.sessionId,
      callId: record.callId,
      locale,
      approval: {
        responder: {
          principalType: 'api_key',
          principalId: approver?.approverId ?? 'unknown',
          role: approver?.approverRole,
          tenantId: record.tenantId,
        },
      },
      connectors,
      idempotencyIdentity: record.idempotencyIdentity ?? undefined,
      face: record.face ?? undefined,
      attributes: { approvalId: approval.id },
    });
  }
}

/** The current binding's rules of a tool, as an EffectiveTool's field, when it has any. */
function rulesOf(
  agentType: { tools: ReadonlyMap<string, { rules?: readonly ToolRule[] }> } | null | undefined,
  tool: string,
): { rules: readonly ToolRule[] } | undefined {
  const rules = agentType?.tools.get(tool)?.rules;
  return rules?.length ? { rules } : undefined;
}

/** The current binding's guardrails of a tool: an approved call's result is checked like any other. */
function guardrailsOf(
  agentType: { tools: ReadonlyMap<string, { guardrails?: ToolGuardrails }> } | null | undefined,
  tool: string,
): { guardrails: ToolGuardrails } | undefined {
  const guardrails = agentType?.tools.get(tool)?.guardrails;
  return guardrails ? { guardrails } : undefined;
}
