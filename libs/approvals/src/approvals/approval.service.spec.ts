import type { AuditTrail } from '@toolgate/audit';
import { ErrorCode, type CallPrincipal } from '@toolgate/toolkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallRef } from '@toolgate/calls';
import { ApprovalEntity } from '../entities/approval.entity.js';
import {
  approvalsDatabase,
  RecordedAuditEvents,
  type ApprovalsDatabase,
} from '../testing/approvals-database.js';
import type { ApprovedCallRunner } from './approved-call.runner.js';
import { ApprovalService } from './approval.service.js';

const NOW = Date.UTC(2026, 0, 1, 9);
const EXPIRY_MS = 15 * 60_000;

const key = (principalId: string, role: string, tenantId: string | null = 'acme'): CallPrincipal => ({
  principalType: 'api_key',
  principalId,
  role,
  tenantId,
});
const requester = key('key_agent', 'agent');
const ann = key('key_ann', 'approver');
const bob = key('key_bob', 'approver');
const admin = key('key_admin', 'tenant_admin');

describe('ApprovalService', () => {
  let db: ApprovalsDatabase;
  let audit: RecordedAuditEvents;
  let ran: CallRef[];
  let service: ApprovalService;
  let n = 0;

  /** Parks a call of `requester` in acme, as the approval gate does; answers the approval id. */
  async function park(over: Partial<ApprovalEntity> = {}, locale = 'en'): Promise<string> {
    n++;
    const approval = Object.assign(new ApprovalEntity(), {
      id: `apr_${n}`,
      callId: `call_${n}`,
      tenantId: 'acme',
      agentType: 'ops',
      tool: 'restart_service',
      implementation: 'default',
      riskLevel: 'L3',
      sessionId: 'session_1',
      inputDigest: 'digest',
      inputRedacted: { service: 'payment-api' },
      prompt: 'Restart payment-api?',
      promptError: null,
      requestedBy: requester.principalId,
      status: 'pending' as const,
      mode: 'always',
      grantKey: 'restart_service',
      required: 1,
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + EXPIRY_MS),
      decidedAt: null,
      ...over,
    });
    await db.approvals.park(
      {
        tenantId: approval.tenantId,
        callId: approval.callId,
        agentType: 'ops',
        tool: approval.tool,
        implementation: 'default',
        sessionId: approval.sessionId,
        idempotencyIdentity: null,
        face: 'rest',
        principal: { principalType: 'api_key', principalId: approval.requestedBy },
        locale,
        input: { service: 'payment-api' },
        inputRedacted: { service: 'payment-api' },
        inputDigest: 'digest',
        timeoutMs: 30_000,
        approvalMode: approval.mode,
        bindingVersion: 1,
        approvalId: approval.id,
        instanceId: 'gw-1',
      },
      approval,
      async () => undefined,
    );
    return approval.id;
  }
  const callOf = (approvalId: string) =>
    db.calls.find({ tenantId: 'acme', callId: approvalId.replace('apr_', 'call_') });
  const statusOf = async (approvalId: string) => (await db.approvals.find(approvalId))!.status;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    n = 0;
    db = await approvalsDatabase();
    audit = new RecordedAuditEvents();
    ran = [];
    const runner = {
      prepare: () => ({ tenantTools: Promise.resolve(new Map()), holds: Promise.resolve(true) }),
      run: async (ref: CallRef) => {
        ran.push(ref);
        return db.calls.find(ref);
      },
    };
    service = new ApprovalService(
      db.approvals,
      db.calls,
      runner as unknown as ApprovedCallRunner,
      audit as unknown as AuditTrail,
    );
  });
  afterEach(async () => {
    await db.close();
    vi.useRealTimers();
  });

  it('never lets the principal that asked decide its own approval, whatever its role', async () => {
    const id = await park({ requestedBy: admin.principalId });
    for (const decision of ['approve', 'deny'] as const)
      await expect(service.decide(admin, id, decision, undefined)).rejects.toMatchObject({
        code: ErrorCode.FORBIDDEN,
        details: { reason: 'the principal that requested a call may not decide its approval' },
      });
    expect(await statusOf(id)).toBe('pending');
    expect(ran).toEqual([]);
  });

  it('lets approvers and tenant admins of the tenant decide, and no other role', async () => {
    const id = await park();
    for (const actor of [key('key_x', 'agent'), key('key_y', 'auditor')])
      await expect(service.decide(actor, id, 'approve', undefined)).rejects.toMatchObject({
        code: ErrorCode.FORBIDDEN,
      });
    await expect(service.decide(admin, id, 'approve', undefined)).resolves.toMatchObject({
      approval: { status: 'approved', decisions: [{ approverId: 'key_admin', decision: 'approve' }] },
    });
  });

  it("hides another tenant's approvals and keeps platform admins to the platform's own", async () => {
    const id = await park();
    await expect(
      service.decide(key('key_g', 'approver', 'globex'), id, 'approve', undefined),
    ).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
    const platformAdmin = key('key_root', 'platform_admin', null);
    await expect(service.get(platformAdmin, id)).resolves.toMatchObject({ approvalId: id });
    await expect(service.decide(platformAdmin, id, 'approve', undefined)).rejects.toMatchObject({
      code: ErrorCode.FORBIDDEN,
    });
    expect(await statusOf(id)).toBe('pending');
  });

  it('runs an approved call once, and refuses a second decision on it', async () => {
    const id = await park();
    const { approval, call } = await service.decide(ann, id, 'approve', 'ok');
    expect(approval).toMatchObject({ status: 'approved', decidedAt: new Date(NOW).toISOString() });
    expect(call).toMatchObject({ status: 'running' }); // queued for a gateway to claim
    expect(await callOf(id)).toMatchObject({ status: 'queued' });
    expect(ran).toEqual([{ tenantId: 'acme', callId: 'call_1' }]);
    await expect(service.decide(bob, id, 'deny', undefined)).rejects.toMatchObject({
      code: ErrorCode.ALREADY_EXISTS,
    });
    expect(ran).toHaveLength(1);
    expect(audit.events.map((e) => [e.event, e.approverId, e.details.outcome])).toEqual([
      ['approval_decided', 'key_ann', 'approved'],
    ]);
  });

  it("ends a denied call with APPROVAL_DENIED in the caller's language and the approver's comment", async () => {
    const id = await park({}, 'zh-CN');
    const { approval, call } = await service.decide(ann, id, 'deny', 'not during business hours');
    expect(approval.status).toBe('denied');
    expect(call).toMatchObject({
      status: 'denied',
      result: {
        code: ErrorCode.APPROVAL_DENIED,
        approvalId: id,
        details: { comment: 'not during business hours' },
      },
    });
    expect((call!.result as { error: string }).error).toMatch(/[\u4e00-\u9fff]/);
    expect(ran).toEqual([]);
  });

  it('needs two distinct approvers where two are required; one approver cannot count twice', async () => {
    const id = await park({ required: 2 });
    await expect(service.decide(ann, id, 'approve', undefined)).resolves.toMatchObject({
      approval: { status: 'pending' },
      call: { status: 'pending_approval' },
    });
    await expect(service.decide(ann, id, 'approve', undefined)).rejects.toMatchObject({
      code: ErrorCode.FORBIDDEN,
      details: { reason: expect.stringContaining('already decided') },
    });
    expect(ran).toEqual([]);
    await expect(service.decide(bob, id, 'approve', undefined)).resolves.toMatchObject({
      approval: { status: 'approved', decisions: [{ approverId: 'key_ann' }, { approverId: 'key_bob' }] },
    });
    expect(ran).toHaveLength(1);
  });

  it('lets one denial end an approval that needs two approvers', async () => {
    const id = await park({ required: 2 });
    await service.decide(ann, id, 'approve', undefined);
    await expect(service.decide(bob, id, 'deny', undefined)).resolves.toMatchObject({
      approval: { status: 'denied' },
      call: { status: 'denied' },
    });
  });

  it('answers APPROVAL_EXPIRED for a decision after the expiry, and expires the call with it', async () => {
    const id = await park();
    vi.setSystemTime(NOW + EXPIRY_MS);
    await expect(service.decide(ann, id, 'approve', undefined)).rejects.toMatchObject({
      code: ErrorCode.APPROVAL_EXPIRED,
    });
    expect(await statusOf(id)).toBe('expired');
    expect(await callOf(id)).toMatchObject({
      status: 'expired',
      envelope: { code: ErrorCode.APPROVAL_EXPIRED },
    });
    await expect(service.decide(bob, id, 'approve', undefined)).rejects.toMatchObject({
      code: ErrorCode.APPROVAL_EXPIRED,
    });
    expect(ran).toEqual([]);
  });

  it('sweeps only pending approvals past their expiry', async () => {
    const early = await park({ expiresAt: new Date(NOW + 60_000) });
    const late = await park();
    const decided = await park({ expiresAt: new Date(NOW + 60_000) });
    await service.decide(ann, decided, 'approve', undefined);
    vi.setSystemTime(NOW + 60_001);
    expect(await service.sweepExpired()).toBe(1);
    expect([await statusOf(early), await statusOf(late), await statusOf(decided)]).toEqual([
      'expired',
      'pending',
      'approved',
    ]);
    expect(await service.sweepExpired()).toBe(0);
  });

  it('leaves a once grant for the requester in its session, for that tool and key, until the expiry', async () => {
    const id = await park({ mode: 'once', grantKey: 'payment-api' });
    await service.decide(ann, id, 'approve', undefined);
    const holder = { tenantId: 'acme', principalId: requester.principalId, sessionId: 'session_1' };
    const granted = (h: typeof holder, tool = 'restart_service', grantKey = 'payment-api', at = NOW) =>
      db.approvals.hasGrant(h, tool, grantKey, new Date(at));
    expect(await granted(holder)).toBe(true);
    expect(await granted({ ...holder, principalId: 'key_other' })).toBe(false); // same session id, other key
    expect(await granted({ ...holder, sessionId: 'session_2' })).toBe(false);
    expect(await granted({ ...holder, tenantId: 'globex' })).toBe(false);
    expect(await granted(holder, 'restart_service', 'billing-api')).toBe(false);
    expect(await granted(holder, 'stop_service')).toBe(false);
    expect(await granted(holder, 'restart_service', 'payment-api', NOW + EXPIRY_MS)).toBe(false);
  });

  it('leaves no grant for an always approval, nor for a denied once approval', async () => {
    const holder = { tenantId: 'acme', principalId: requester.principalId, sessionId: 'session_1' };
    await service.decide(ann, await park({ mode: 'always' }), 'approve', undefined);
    await service.decide(ann, await park({ mode: 'once', grantKey: 'other' }), 'deny', undefined);
    expect(await db.approvals.hasGrant(holder, 'restart_service', 'restart_service', new Date())).toBe(false);
    expect(await db.approvals.hasGrant(holder, 'restart_service', 'other', new Date())).toBe(false);
  });

  it("lists a tenant's approvals to its deciders, all of them to platform admins, none to agents", async () => {
    await park();
    await park({ tenantId: 'globex' });
    expect((await service.list(ann)).map((a) => a.tenantId)).toEqual(['acme']);
    expect(await service.list(key('key_root', 'platform_admin', null))).toHaveLength(2);
    await expect(service.list(requester)).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
  });
});
