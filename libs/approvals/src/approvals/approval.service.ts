import { Injectable, Logger, Optional } from '@nestjs/common';
import { AuditTrail, PLATFORM_TENANT, type AdminEvent } from '@toolgate/audit';
import type { WriteStatement } from '@toolgate/database';
import { KeyOwners } from '@toolgate/auth';
import { BindingResolver } from '@toolgate/tenancy';
import { errorEnvelope, ErrorCode, ToolgateError, type CallPrincipal, type Locale } from '@toolgate/toolkit';
import type { EntityManager } from 'typeorm';
import {
  CallRecords,
  type CallRef,
  CallTransitions,
  type DecidedBy,
  localeOfCall,
  toCallView,
  type ToolCallEntity,
} from '@toolgate/calls';
import { ApprovalDecisionEntity } from '../entities/approval-decision.entity.js';
import { ApprovalEntity, type ApprovalStatus } from '../entities/approval.entity.js';
import { ApprovalDecisions, type ApprovalDecision } from './approval-decisions.js';
import { toApprovalView, type ApprovalView } from './approval-view.js';
import { approvalNotFound, ApprovalRepository } from './approval.repository.js';
import { ApprovedCallRunner } from './approved-call.runner.js';
import { tenantApprovalSettingsSchema } from './tenant-approval-settings.js';
import { ApprovalWakeups } from '../wakeups/approval-wakeups.js';

const DECIDERS = new Set(['approver', 'tenant_admin']);

type Outcome = 'approved' | 'partly' | 'denied' | 'expired';

/** Who decides: a key or a signed-in person (whose e-mail comes from its identity token). */
export type Decider = CallPrincipal & { readonly email?: string };

/** The people behind a decision: who decides and who asked, where known (separation of duties). */
interface DecisionPeople {
  readonly decider: string | null;
  readonly requester: string | null;
}

/** The decider as the decision, the call record and the audit trail name it. */
function deciderOf(actor: Decider): DecidedBy {
  return {
    type: actor.principalType === 'user' ? 'user' : 'api_key',
    id: actor.principalId,
    ...(actor.name ? { name: actor.name } : {}),
    ...(actor.email ? { email: actor.email } : {}),
  };
}

/** A decision's transaction: its outcome, and the approval and its decisions as it left them. */
interface Decided {
  readonly outcome: Outcome;
  readonly approval: ApprovalEntity;
  readonly decisions: ApprovalDecisionEntity[];
  /** The call record as the decision left it (moved in memory with the statement that moved it). */
  readonly record: ToolCallEntity | null;
  /** To call once the transaction committed: the audit view takes in the chain head it left. */
  readonly committed: () => void;
}

/**
 * Decisions on parked calls: by approvers or tenant admins of the call's tenant, never by the
 * principal that asked (separation of duties); two distinct approvers where the tenant requires it
 * for L3. An approved call then runs exactly once; a denied one never reaches the tool.
 */
@Injectable()
export class ApprovalService {
  private readonly logger = new Logger(ApprovalService.name);

  constructor(
    private readonly approvals: ApprovalRepository,
    private readonly calls: CallRecords,
    private readonly runner: ApprovedCallRunner,
    private readonly audit: AuditTrail,
    @Optional() private readonly decisions?: ApprovalDecisions,
    @Optional() private readonly keys?: KeyOwners,
    @Optional() private readonly wakeups?: ApprovalWakeups,
    @Optional() private readonly bindings?: BindingResolver,
  ) {}

  /**
   * Whether the decider is a member of the approval's group (a rule's `approverGroup`, issue 26),
   * as the tenant file says now: by key id, signed-in person, or the person owning the key. A
   * group the tenant no longer has has no members: its approval can only be denied or expire.
   */
  private async inGroup(approval: ApprovalEntity, actor: Decider, people: DecisionPeople): Promise<boolean> {
    const group = approval.approverGroup;
    if (!group) return true;
    const tenant = await this.bindings?.tenant(approval.tenantId);
    const settings = tenantApprovalSettingsSchema.safeParse(tenant?.settings.approvals ?? {});
    const members = (settings.success && settings.data.groups?.[group]) || [];
    return (
      members.includes(actor.principalId) || (people.decider !== null && members.includes(people.decider))
    );
  }

  /** Tells this gateway's waiters (a parked run, an MCP task's result) that a call was decided. */
  private announce(decision: ApprovalDecision): void {
    this.decisions?.publish(decision);
  }

  /** Who may see and decide approvals of a tenant. */
  private mayDecide(actor: CallPrincipal, tenantId: string): boolean {
    if (actor.role === 'platform_admin') return tenantId === PLATFORM_TENANT;
    return DECIDERS.has(actor.role ?? '') && actor.tenantId === tenantId;
  }

  async list(actor: CallPrincipal, status?: ApprovalStatus, limit = 200): Promise<ApprovalView[]> {
    if (actor.role !== 'platform_admin' && !DECIDERS.has(actor.role ?? ''))
      throw new ToolgateError(ErrorCode.FORBIDDEN);
    const rows = await this.approvals.list(
      actor.role === 'platform_admin' ? null : (actor.tenantId ?? ''),
      status,
      limit,
    );
    const decisions = await this.approvals.decisionsOf(rows.map((r) => r.id));
    return rows.map((r) =>
      toApprovalView(
        r,
        decisions.filter((d) => d.approvalId === r.id),
      ),
    );
  }

  async get(actor: CallPrincipal, approvalId: string): Promise<ApprovalView> {
    const a = await this.findVisible(actor, approvalId);
    return toApprovalView(a, await this.approvals.decisionsOf([a.id]));
  }

  /**
   * Approves or denies; an approval that completes runs the call here and answers its outcome.
   * On one MySQL server the decision is two round trips (ADR 049): its reads — the approval
   * (locked), its decisions, the owners of the two keys, the call record and the tenant's chain
   * head (locked) — in one packet; the decision, the approval's and the call's moves, the `once`
   * grant, the `approval_decided` event and the head move with COMMIT in another. What it read
   * and wrote is handed on (to the runner, to the answer) rather than read again.
   */
  async decide(
    actor: Decider,
    approvalId: string,
    decision: 'approve' | 'deny',
    comment: string | undefined,
  ) {
    let ref: CallRef | undefined;
    let held: Promise<void> | undefined;
    let decided: Decided | undefined;
    let prepared: ReturnType<ApprovedCallRunner['prepare']> | undefined;
    // Only the decider's own tenant's approvals can be decided (mayDecide): its chain is the one
    // the event goes to, so its head is locked with the reads, before the approval is known.
    const eventTenant =
      actor.role === 'platform_admin' ? PLATFORM_TENANT : (actor.tenantId ?? PLATFORM_TENANT);
    const ofApproval = (column: 'tenant_id' | 'call_id' | 'requested_by') => ({
      sql: `(SELECT ${column} FROM approvals WHERE id = ?)`,
      params: [approvalId],
    });
    try {
      decided = await this.approvals.decideInBatches(
        approvalId,
        (dialect) => [
          this.keys?.personsRead([{ sql: '?', params: [actor.principalId] }, ofApproval('requested_by')]) ?? {
            sql: 'SELECT 1 AS none',
            params: [],
          },
          this.calls.recordRead(ofApproval('tenant_id'), ofApproval('call_id')),
          this.audit.eventRead(eventTenant, dialect),
        ],
        async (approval, decisions, [ownerRows, recordRows, headRows], dialect) => {
          if (!this.visibleTo(actor, approval)) throw approvalNotFound(approvalId);
          if (!this.mayDecide(actor, approval.tenantId)) throw new ToolgateError(ErrorCode.FORBIDDEN);
          ref = { tenantId: approval.tenantId, callId: approval.callId };
          // Other gateways take the call over if this one dies between the commit and the claim.
          // Sent now, awaited after the commit: no round trip of its own on the approver's wait.
          if (decision === 'approve') held ??= this.wakeups?.hold(ref);
          const owners = this.keys ? this.keys.personsFrom(ownerRows!) : new Map<string, string>();
          const people = this.peopleFrom(actor, approval.requestedBy, owners);
          const record = this.calls.recordFrom(recordRows!);
          const applied = await this.apply(
            { approval, decisions, record },
            { actor, people },
            decision,
            comment,
          );
          const event = await this.audit.eventWrites([applied.event], headRows!, dialect);
          if (!event) throw new Error(`tenant ${approval.tenantId} has no audit chain head`);
          // The approved call's reads that do not depend on the commit run beside it.
          if (applied.outcome === 'approved' && record) prepared = this.runner.prepare(record);
          return {
            writes: [...applied.writes, ...event.writes],
            value: { outcome: applied.outcome, approval, decisions, record, committed: event.committed },
          };
        },
      );
      decided.committed();
    } finally {
      await held;
      if (held && ref && decided?.outcome !== 'approved') this.wakeups?.release(ref);
    }
    const { outcome } = decided;
    const call = { tenantId: decided.approval.tenantId, callId: decided.approval.callId };
    if (outcome === 'expired')
      throw new ToolgateError(ErrorCode.APPROVAL_EXPIRED, { details: { approvalId, callId: call.callId } });
    const record =
      outcome === 'approved'
        ? await this.runner.run(
            call,
            { approval: decided.approval, decisions: decided.decisions, record: decided.record, prepared },
            () => this.wakeups?.release(call),
          )
        : decided.record;
    if (outcome !== 'partly') this.announce({ ...call, approvalId });
    return {
      approval: toApprovalView(decided.approval, decided.decisions),
      call: record ? toCallView(record) : null,
    };
  }

  /** The people behind the decider and the requesting key, from the key owners read with the decision. */
  private peopleFrom(actor: Decider, requestedBy: string, owners: Map<string, string>): DecisionPeople {
    const personOf = (id: string, isUser: boolean) => (isUser ? id : (owners.get(id) ?? null));
    return {
      decider: personOf(actor.principalId, actor.principalType === 'user'),
      requester: personOf(requestedBy, !requestedBy.startsWith('key_') && requestedBy !== 'system'),
    };
  }

  /**
   * Decides on what the decision's reads found and answers what to write: the decision, the
   * approval's and the call's moves (the call record moved in memory too, for the answer), the
   * `once` grant, and the `approval_decided` event to append.
   */
  private async apply(
    read: { approval: ApprovalEntity; decisions: ApprovalDecisionEntity[]; record: ToolCallEntity | null },
    { actor, people }: { actor: Decider; people: DecisionPeople },
    decision: 'approve' | 'deny',
    comment: string | undefined,
  ): Promise<{ outcome: Outcome; writes: WriteStatement[]; event: AdminEvent }> {
    const { approval, decisions, record } = read;
    const now = new Date();
    const ref = { tenantId: approval.tenantId, callId: approval.callId };
    const locale: Locale = record ? localeOfCall(record) : 'zh-CN';
    if (approval.status === 'pending' && approval.expiresAt.getTime() <= now.getTime()) {
      const envelope = {
        ...errorEnvelope(ErrorCode.APPROVAL_EXPIRED, locale),
        callId: approval.callId,
        approvalId: approval.id,
      };
      return {
        outcome: 'expired',
        writes: [this.approvals.expiryWrite(approval.id, now), CallTransitions.expire(ref, envelope)],
        event: this.expiryEvent(approval),
      };
    }
    if (approval.status === 'expired')
      throw new ToolgateError(ErrorCode.APPROVAL_EXPIRED, {
        details: { approvalId: approval.id, callId: approval.callId },
      });
    if (approval.status !== 'pending') {
      throw new ToolgateError(ErrorCode.ALREADY_EXISTS, {
        params: { resource: `a decision on ${approval.id} (${approval.status})` },
      });
    }
    if (actor.principalId === approval.requestedBy) {
      throw new ToolgateError(ErrorCode.FORBIDDEN, {
        details: { reason: 'the principal that requested a call may not decide its approval' },
      });
    }
    if (people.decider !== null && people.decider === people.requester) {
      throw new ToolgateError(ErrorCode.FORBIDDEN, {
        details: { reason: 'the person who owns the key that requested a call may not decide its approval' },
      });
    }
    const samePerson = (d: ApprovalDecisionEntity) =>
      d.approverId === actor.principalId || (people.decider !== null && d.approverPerson === people.decider);
    if (decisions.some(samePerson)) {
      throw new ToolgateError(ErrorCode.FORBIDDEN, {
        details: { reason: 'this approver has already decided; a second approver must be someone else' },
      });
    }
    // A denial by anyone who may decide stands; an approval needs a member of the rule's group.
    if (decision === 'approve' && !(await this.inGroup(approval, actor, people))) {
      throw new ToolgateError(ErrorCode.FORBIDDEN, {
        details: {
          reason: `only members of the approver group "${approval.approverGroup}" may approve this call`,
          approverGroup: approval.approverGroup,
        },
      });
    }
    const decider = deciderOf(actor);
    const recorded = Object.assign(new ApprovalDecisionEntity(), {
      approvalId: approval.id,
      approverId: actor.principalId,
      approverRole: actor.role ?? 'unknown',
      approverType: decider.type,
      approverName: decider.name?.slice(0, 200) ?? null,
      approverEmail: decider.email?.slice(0, 320) ?? null,
      approverPerson: people.decider,
      decision,
      comment: comment ?? null,
      decidedAt: now,
    });
    const approvals =
      decisions.filter((d) => d.decision === 'approve').length + (decision === 'approve' ? 1 : 0);
    const outcome: Outcome =
      decision === 'deny' ? 'denied' : approvals >= approval.required ? 'approved' : 'partly';
    // The call record names who decided it (the denier, or the approver whose approval completed
    // it) in the statement that moves it on.
    let callMove: WriteStatement | null = null;
    if (outcome === 'approved') {
      callMove = CallTransitions.queue(ref, decider);
      if (record) Object.assign(record, { status: 'queued', decidedBy: decider, updatedAt: now });
    }
    if (outcome === 'denied') {
      const envelope = {
        ...errorEnvelope(ErrorCode.APPROVAL_DENIED, locale),
        callId: approval.callId,
        approvalId: approval.id,
        details: { comment: comment ?? null },
      };
      callMove = CallTransitions.deny(ref, envelope, decider);
      if (record)
        Object.assign(record, {
          status: 'denied',
          envelope,
          decidedBy: decider,
          input: record.inputRedacted,
          inputRedacted: null,
          updatedAt: now,
        });
    }
    const writes = this.approvals.decisionWrites(
      recorded,
      outcome === 'partly' ? null : { status: outcome, decidedAt: now },
      callMove,
    );
    if (outcome !== 'partly') Object.assign(approval, { status: outcome, decidedAt: now });
    // The rows as they now stand, for the runner and the answer (ordered as decisionsOf reads them).
    decisions.push(recorded);
    decisions.sort((x, y) => x.decidedAt.getTime() - y.decidedAt.getTime());
    if (outcome === 'approved' && approval.mode === 'once') {
      writes.push(
        ...this.approvals.grantWrites(
          { tenantId: approval.tenantId, principalId: approval.requestedBy, sessionId: approval.sessionId },
          approval,
        ),
      );
    }
    return {
      outcome,
      writes,
      event: {
        event: 'approval_decided',
        tenantId: approval.tenantId,
        actor: { type: actor.principalType, id: actor.principalId },
        approverId: actor.principalId,
        callId: approval.callId,
        tool: approval.tool,
        implementation: approval.implementation,
        riskLevel: approval.riskLevel,
        agentType: approval.agentType,
        sessionId: approval.sessionId,
        input: approval.inputRedacted,
        details: {
          approvalId: approval.id,
          decision,
          outcome,
          comment: comment ?? null,
          approvals,
          required: approval.required,
          prompt: approval.prompt,
          approver: decider,
        },
      },
    };
  }

  /**
   * Withdraws a pending approval whose caller no longer wants the call (an agent run cancelled):
   * denied by the platform, so that a later approval cannot run it. False when already decided.
   */
  async withdraw(approvalId: string, actor: CallPrincipal, reason: string): Promise<boolean> {
    return this.approvals.decide(approvalId, async (em, approval) => {
      if (approval.status !== 'pending') return false;
      const now = new Date();
      await em.update(
        ApprovalEntity,
        { id: approval.id, status: 'pending' },
        { status: 'denied', decidedAt: now },
      );
      const ref = { tenantId: approval.tenantId, callId: approval.callId };
      // Denied by the platform: no person decided it.
      await this.calls.deny(
        em,
        ref,
        {
          ...errorEnvelope(ErrorCode.APPROVAL_DENIED, await this.localeOf(em, ref)),
          callId: approval.callId,
          approvalId: approval.id,
          details: { reason },
        },
        null,
      );
      await this.audit.recordIn(em, [
        {
          event: 'approval_decided',
          tenantId: approval.tenantId,
          actor: { type: actor.principalType, id: actor.principalId },
          callId: approval.callId,
          tool: approval.tool,
          riskLevel: approval.riskLevel,
          agentType: approval.agentType,
          sessionId: approval.sessionId,
          details: { approvalId: approval.id, decision: 'withdrawn', outcome: 'denied', reason },
        },
      ]);
      return true;
    });
  }

  /** Marks pending approvals past their expiry as expired; answers how many. */
  async sweepExpired(): Promise<number> {
    let n = 0;
    for (const a of await this.approvals.expiredPending(new Date())) {
      const expired = await this.approvals.decide(a.id, async (em, approval) => {
        if (approval.status !== 'pending') return false;
        await this.expireIn(em, approval, new Date());
        return true;
      });
      if (expired) {
        n++;
        this.announce({ tenantId: a.tenantId, callId: a.callId, approvalId: a.id });
      }
    }
    if (n) this.logger.log(`${n} approval(s) expired`);
    return n;
  }

  private async expireIn(em: EntityManager, approval: ApprovalEntity, now: Date): Promise<void> {
    await em.update(
      ApprovalEntity,
      { id: approval.id, status: 'pending' },
      { status: 'expired', decidedAt: now },
    );
    const ref = { tenantId: approval.tenantId, callId: approval.callId };
    await this.calls.expire(em, ref, {
      ...errorEnvelope(ErrorCode.APPROVAL_EXPIRED, await this.localeOf(em, ref)),
      callId: approval.callId,
      approvalId: approval.id,
    });
    await this.audit.recordIn(em, [this.expiryEvent(approval)]);
  }

  /** The `approval_decided` event of an approval nobody decided in time. */
  private expiryEvent(approval: ApprovalEntity): AdminEvent {
    return {
      event: 'approval_decided',
      tenantId: approval.tenantId,
      actor: { type: 'system', id: 'approval-expiry' },
      callId: approval.callId,
      tool: approval.tool,
      riskLevel: approval.riskLevel,
      agentType: approval.agentType,
      sessionId: approval.sessionId,
      details: {
        approvalId: approval.id,
        decision: 'expired',
        outcome: 'expired',
        expiresAt: approval.expiresAt.toISOString(),
      },
    };
  }

  /** The language the caller of a call asked in: its denied or expired answer speaks it too. */
  private async localeOf(em: EntityManager, ref: { tenantId: string; callId: string }): Promise<Locale> {
    const record = await this.calls.find(ref, em);
    return record ? localeOfCall(record) : 'zh-CN';
  }

  /** Whether the actor may see the approval: its tenant's, or any for platform admins. */
  private visibleTo(actor: CallPrincipal, a: ApprovalEntity | null): a is ApprovalEntity {
    return !!a && (actor.role === 'platform_admin' || a.tenantId === actor.tenantId);
  }

  /** The approval, if the actor may see it; else NOT_FOUND. */
  private async findVisible(actor: CallPrincipal, approvalId: string): Promise<ApprovalEntity> {
    const a = await this.approvals.find(approvalId);
    if (!this.visibleTo(actor, a)) throw approvalNotFound(approvalId);
    return a;
  }
}
