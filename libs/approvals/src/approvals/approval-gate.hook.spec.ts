import { Test, type TestingModule } from '@nestjs/testing';
import { AuditTrail, DEFAULT_REDACTION_POLICY, Redactor, TenantRedaction } from '@toolgate/audit';
import { InstanceRegistry } from '@toolgate/database';
import { BindingResolver } from '@toolgate/tenancy';
import {
  always,
  defineToolContract,
  ErrorCode,
  isOk,
  never,
  once,
  sensitive,
  ToolExecutor,
  ToolkitModule,
  ToolRegistry,
  type ApprovalMode,
  type CallPrincipal,
  type ToolCallResult,
} from '@toolgate/toolkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { APPROVALS_OPTIONS, DEFAULT_APPROVALS_OPTIONS, type ApprovalsOptions } from '../approvals.options.js';
import {
  approvalsDatabase,
  RecordedAuditEvents,
  type ApprovalsDatabase,
} from '../testing/approvals-database.js';
import { ApprovalRepository } from './approval.repository.js';
import { actionDigest, ApprovalGate } from './approval-gate.hook.js';

const NOW = Date.UTC(2026, 0, 1, 9);
const OPTIONS: ApprovalsOptions = {
  ...DEFAULT_APPROVALS_OPTIONS,
  expiryMs: 15 * 60_000,
  pollMs: 1_000,
};

let executions = 0;
const restart = defineToolContract({
  name: 'restart_service',
  description: 'Restarts a service.',
  inputSchema: z.object({ service: z.string(), password: sensitive(z.string()).optional() }),
  risk: { level: 'L3' },
  approval: {
    request: always(),
    prompt: ({ input }) => `Restart ${input.service} (password ${input.password})?`,
  },
}).implement(() => ({ restarted: ++executions }));
const scale = defineToolContract({
  name: 'scale_service',
  description: 'Scales a service.',
  inputSchema: z.object({ service: z.string() }),
  risk: { level: 'L2' },
  approval: once(),
  approvalKey: ({ service }) => service,
}).implement(() => ({ scaled: ++executions }));
const tag = defineToolContract({
  name: 'tag_service',
  description: 'Tags a service.',
  inputSchema: z.object({ service: z.string() }),
  risk: { level: 'L1' },
  approval: {
    request: never(),
    prompt: () => {
      throw new Error('no template for tag_service');
    },
  },
}).implement(() => ({ tagged: ++executions }));

const agentKey: CallPrincipal = {
  principalType: 'api_key',
  principalId: 'key_agent',
  role: 'agent',
  tenantId: 'acme',
};

describe('ApprovalGate', () => {
  let db: ApprovalsDatabase;
  let moduleRef: TestingModule;
  /** The tenants' approval settings, as the binding resolver hands out the tenant rows. */
  let twoApproversForL3: boolean;

  /** Calls a tool the way the gateway does; `approval` overrides the binding's mode. */
  async function call(
    name: string,
    input: unknown,
    over: { approval?: ApprovalMode; principal?: CallPrincipal; sessionId?: string; resumed?: boolean } = {},
  ): Promise<ToolCallResult> {
    const contract = moduleRef.get(ToolRegistry).get(name)!;
    const principal = over.principal ?? agentKey;
    return moduleRef.get(ToolExecutor).run({
      tool: {
        contract,
        implementation: [...contract.implementations.values()][0]!,
        timeoutMs: contract.timeoutMs,
        approval: over.approval ?? contract.approval.mode,
        bindingVersion: 1,
      },
      input,
      tenant: { id: 'acme' },
      agentType: 'ops',
      principal,
      sessionId: over.sessionId ?? 'session_1',
      locale: 'en',
      approval: over.resumed ? { responder: { principalType: 'api_key', principalId: 'key_ann' } } : null,
    });
  }
  const approvalOf = async (result: ToolCallResult) => {
    expect(result.envelope).toMatchObject({ code: ErrorCode.APPROVAL_PENDING, callId: result.callId });
    return (await db.approvals.find((result.envelope as { approvalId: string }).approvalId))!;
  };

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    executions = 0;
    twoApproversForL3 = false;
    db = await approvalsDatabase();
    const redactor = new Redactor(DEFAULT_REDACTION_POLICY, Buffer.alloc(32));
    moduleRef = await Test.createTestingModule({
      imports: [
        ToolkitModule.forRoot({ defaultLocale: 'en' }),
        ToolkitModule.forFeature([restart, scale, tag], 'approval-gate-spec'),
      ],
      providers: [
        ApprovalGate,
        { provide: ApprovalRepository, useValue: db.approvals },
        { provide: APPROVALS_OPTIONS, useValue: OPTIONS },
        { provide: AuditTrail, useValue: new RecordedAuditEvents() },
        { provide: TenantRedaction, useValue: { redactorFor: async () => redactor } },
        { provide: InstanceRegistry, useValue: { instanceId: 'gw-1' } },
        {
          provide: BindingResolver,
          useValue: { tenant: async () => ({ id: 'acme', settings: { approvals: { twoApproversForL3 } } }) },
        },
      ],
    }).compile();
    await moduleRef.init();
  });
  afterEach(async () => {
    await moduleRef.close();
    await db.close();
    vi.useRealTimers();
  });

  it('parks an L3 call even when its binding asks for no approval: nothing runs, the call and approval are stored', async () => {
    const result = await call('restart_service', { service: 'payment-api' }, { approval: 'never' });
    const approval = await approvalOf(result);
    expect(approval).toMatchObject({
      status: 'pending',
      mode: 'always',
      requestedBy: 'key_agent',
      required: 1,
      riskLevel: 'L3',
      sessionId: 'session_1',
      inputDigest: actionDigest('restart_service', 'default', { service: 'payment-api' }),
      expiresAt: new Date(NOW + OPTIONS.expiryMs),
    });
    expect(await db.calls.find({ tenantId: 'acme', callId: result.callId })).toMatchObject({
      status: 'pending_approval',
      approvalId: approval.id,
    });
    expect(executions).toBe(0);
  });

  it("asks for approval by the binding's mode below L3: none for never, every time for always", async () => {
    expect(isOk((await call('tag_service', { service: 'a' })).envelope)).toBe(true);
    await approvalOf(await call('tag_service', { service: 'a' }, { approval: 'always' }));
    expect(executions).toBe(1);
  });

  it('needs two approvers for L3 calls of a tenant that asks for it, one otherwise', async () => {
    expect((await approvalOf(await call('restart_service', { service: 'a' }))).required).toBe(1);
    twoApproversForL3 = true;
    expect((await approvalOf(await call('restart_service', { service: 'a' }))).required).toBe(2);
    expect(
      (await approvalOf(await call('tag_service', { service: 'a' }, { approval: 'always' }))).required,
    ).toBe(1);
  });

  it('lets a once grant through for the same key, session and approval key only', async () => {
    const approval = await approvalOf(await call('scale_service', { service: 'payment-api' }));
    expect(approval.grantKey).toBe('payment-api');
    await db.transactions.run((em) =>
      db.approvals.grant(
        em,
        { tenantId: 'acme', principalId: 'key_agent', sessionId: 'session_1' },
        approval,
      ),
    );
    expect(isOk((await call('scale_service', { service: 'payment-api' })).envelope)).toBe(true);
    await approvalOf(await call('scale_service', { service: 'billing-api' }));
    await approvalOf(await call('scale_service', { service: 'payment-api' }, { sessionId: 'session_2' }));
    await approvalOf(
      await call(
        'scale_service',
        { service: 'payment-api' },
        { principal: { ...agentKey, principalId: 'key_other' } },
      ),
    );
    vi.setSystemTime(NOW + OPTIONS.expiryMs);
    await approvalOf(await call('scale_service', { service: 'payment-api' }));
    expect(executions).toBe(1);
  });

  it('shows the approver the input with sensitive fields sealed, in the stored input and the prompt', async () => {
    const approval = await approvalOf(
      await call('restart_service', { service: 'payment-api', password: 'hunter2' }),
    );
    expect(approval.inputRedacted).toEqual({ service: 'payment-api', password: '[REDACTED]' });
    expect(approval.prompt).toBe('Restart payment-api (password [REDACTED])?');
    expect(approval.promptError).toBeNull();
  });

  it("falls back to the generic prompt when the tool's prompt throws, and says so", async () => {
    const approval = await approvalOf(await call('tag_service', { service: 'a' }, { approval: 'always' }));
    expect(approval.prompt).toBe('Tag service: {"service":"a"}');
    expect(approval.promptError).toBe("the tool's approval prompt failed: no template for tag_service");
  });

  it('does not park again a call a person already approved', async () => {
    expect(isOk((await call('restart_service', { service: 'a' }, { resumed: true })).envelope)).toBe(true);
    expect(executions).toBe(1);
  });
});
