import type { ToolGuardrails, ToolRule } from '@toolgate/contract/rules';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { PrincipalStanding, standingLostEnvelope } from '@toolgate/auth';
import { InstanceRegistry } from '@toolgate/database';
import { BindingResolver, TenantConnectors } from '@toolgate/tenancy';
import { errorEnvelope, ErrorCode, isOk, ToolExecutor } from '@toolgate/toolkit';
import {
  CALL_RESULT_REDACTION,
  CallRecords,
  type CallRef,
  type CallResultRedaction,
  localeOfCall,
  principalOf,
  type ToolCallEntity,
} from '@toolgate/calls';
import type { ApprovalDecisionEntity } from '../entities/approval-decision.entity.js';
import type { ApprovalEntity } from '../entities/approval.entity.js';
import { actionDigest } from './approval-gate.hook.js';
import { ApprovalRepository } from './approval.repository.js';
import { inParkedCallTrace } from './parked-call-trace.js';

/** Reads an approved call's run needs that do not depend on the decision's commit. */
export interface RunPreparation {
  /** The registry plus the tenant's own (imported) tools, read fresh (see execute). */
  readonly tenantTools: ReturnType<BindingResolver['lookupFor']>;
  /** Whether the key or person that asked still stands. */
  readonly holds: Promise<boolean>;
}

/** An approval, its decisions and its call as the decision's transaction left them. */
export interface KnownApproval {
  readonly approval: ApprovalEntity;
  readonly decisions: readonly ApprovalDecisionEntity[];
  /** The call record, `queued` by the decision (its status, `decidedBy` and time moved in memory). */
  readonly record?: ToolCallEntity | null;
  /** Its reads started beside the decision's commit (`prepare`). */
  readonly prepared?: RunPreparation;
}

/**
 * Runs an approved call exactly once, on whichever gateway claims it first: the stored validated
 * input, checked against the digest the approval was bound to, for the principal who asked, with
 * the approver as `ctx.approval.responder`. The claim is a guarded statement of the call's
 * `started` commit (ADR 049): of two gateways, one writes `started` and runs the tool.
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
    @Optional() @Inject(CALL_RESULT_REDACTION) private readonly redaction?: CallResultRedaction,
  ) {}

  /**
   * Starts the reads of a call's run that need only its record: its tenant's tools (read fresh)
   * and the standing of who asked. Started beside the decision's commit, they cost the approver
   * no round trip of their own; nothing is written.
   */
  prepare(record: ToolCallEntity): RunPreparation {
    const tenantTools = this.resolver.lookupFor(record.tenantId);
    const holds = this.standing.stillValid(record.principal);
    // A run that does not happen never reads them; execute reports their failure otherwise.
    tenantTools.catch(() => undefined);
    holds.catch(() => undefined);
    return { tenantTools, holds };
  }

  /**
   * Runs the call if it is `queued` and this gateway's `started` claims it; answers the call record
   * as it stands afterwards — built from what the run answered when the tool ran here (no read),
   * read again otherwise. `known`: its approval, decisions and record as the caller just wrote
   * them (else read here); `claimed`: told once the claim is settled, won or lost.
   */
  async run(ref: CallRef, known?: KnownApproval, claimed?: () => void): Promise<ToolCallEntity | null> {
    let record: ToolCallEntity | null | undefined;
    try {
      record = known?.record ?? (await this.calls.find(ref));
      if (!record || record.status !== 'queued') return record ?? null;
      const prepared = known?.prepared ?? this.prepare(record);
      const queued = record;
      // In the trace the call was parked in, after its approval-wait span (ADR 019).
      const ran = await inParkedCallTrace(queued, () => this.execute(queued, known, prepared));
      if (ran) return ran;
    } catch (err) {
      this.logger.error(`approved call ${ref.callId} could not run`, err as Error);
      const envelope = errorEnvelope(ErrorCode.INTERNAL_ERROR, record ? localeOfCall(record) : 'zh-CN');
      if (!(await this.calls.refuse(ref, envelope))) await this.calls.fail(ref, envelope);
    } finally {
      claimed?.();
    }
    return this.calls.find(ref);
  }

  /**
   * Runs the call: its `started` claims it. Answers the record as the run leaves it when the tool
   * ran here; null when it did not (refused here: the record says why; claimed by another gateway;
   * stopped before it ran) — then the caller reads it.
   */
  private async execute(
    record: ToolCallEntity,
    known: KnownApproval | undefined,
    prepared: RunPreparation,
  ): Promise<ToolCallEntity | null> {
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
      prepared.tenantTools,
      record.agentType ? this.resolver.agentType(record.tenantId, record.agentType) : undefined,
      this.connectors.forTenant(record.tenantId),
      // The key that asked may have been revoked while its call waited: then it does not run.
      prepared.holds,
    ]);
    const contract = lookup.get(record.tool);
    const implementation = contract?.implementations.get(record.implementation);
    const blocked = agentType?.blocked?.get(record.tool);
    if (!approval || approval.tenantId !== record.tenantId || !contract || !implementation || blocked) {
      const params = { tool: record.tool, agentType: record.agentType };
      await this.calls.refuse(
        ref,
        blocked
          ? errorEnvelope(blocked.code, locale, params, { tool: record.tool, reason: blocked.reason })
          : errorEnvelope(ErrorCode.TOOL_NOT_FOUND, locale, params),
      );
      return null;
    }
    if (!holds) {
      await this.calls.refuse(ref, {
        ...standingLostEnvelope(record.principal, locale),
        callId: record.callId,
      });
      return null;
    }
    if (actionDigest(record.tool, record.implementation, record.input) !== approval.inputDigest) {
      // Someone changed the stored input after the approval: run nothing.
      await this.calls.refuse(ref, {
        error: 'The stored input no longer matches what was approved; nothing was run',
        code: 'APPROVAL_MISMATCH',
        suggestedAction: 'Invoke the tool again to ask for a new approval',
      });
      return null;
    }
    const decisions =
      known?.approval === approval ? known.decisions : await this.approvals.decisionsOf([approval.id]);
    const approver = [...decisions].reverse().find((d) => d.decision === 'approve');
    const principal = principalOf(record.principal);
    const result = await this.executor.run({
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
    if (result.stage !== 'executed') {
      // Stopped before the tool ran. Before its `started` (a hook refused it, or the audit store
      // did not take it): the call ends with that answer, unless a gateway claimed it meanwhile.
      // After it, or claimed by another gateway: the record already tells (this changes nothing).
      const stored = (await this.redaction?.storedEnvelope(
        record.tenantId,
        record.tool,
        result.envelope,
      )) ?? {
        error: 'The approved call was stopped before it ran',
        code: 'INTERNAL_ERROR',
      };
      await this.calls.refuse(ref, stored);
      return null;
    }
    // The tool ran here, so this gateway's `started` claimed the call, and its `finished` (with the
    // record's end, ADR 031) was written: the record as it now stands, without reading it back.
    if (!this.redaction) return null;
    const stored = await this.redaction.storedEnvelope(record.tenantId, record.tool, result.envelope);
    return Object.assign(Object.create(Object.getPrototypeOf(record) as object) as ToolCallEntity, record, {
      status: isOk(result.envelope) ? 'succeeded' : 'failed',
      envelope: stored as Record<string, unknown>,
      instanceId: this.instances.instanceId,
      input: record.inputRedacted,
      inputRedacted: null,
      updatedAt: new Date(),
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
