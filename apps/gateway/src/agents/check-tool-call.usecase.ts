import { Inject, Injectable } from '@nestjs/common';
import { AgentFactory, type AgentPrincipal } from '@toolgate/agents';
import { APPROVALS_OPTIONS, tenantApprovalSettingsSchema, type ApprovalsOptions } from '@toolgate/approvals';
import type { Issue, ToolCallCheck } from '@toolgate/contract';
import { TenantRedaction } from '@toolgate/audit';
import {
  maskInput,
  outcomeOf,
  principalFacts,
  reasonOf,
  scanContent,
  toolFacts,
  ToolPolicy,
  unfitMask,
} from '@toolgate/policy';
import { BindingResolver } from '@toolgate/tenancy';
import { ErrorCode, invalidInputEnvelope, type Locale } from '@toolgate/toolkit';

/** One check request, as the controller hands it over. */
export interface CheckCommand {
  readonly tenantId: string;
  readonly agentType: string;
  readonly toolName: string;
  readonly principal: AgentPrincipal;
  readonly input: unknown;
  readonly locale: Locale;
}

/**
 * `POST /v1/agents/:agentType/tools/:toolName/check`: what a REST call of this tool with this input
 * would meet, decided by the same rules and policy the pipeline uses, without running anything,
 * parking anything or writing the trail: the deciding rule, and next `run`, `park` or `refuse`.
 */
@Injectable()
export class CheckToolCallUseCase {
  constructor(
    private readonly agents: AgentFactory,
    private readonly policy: ToolPolicy,
    private readonly bindings: BindingResolver,
    private readonly redaction: TenantRedaction,
    @Inject(APPROVALS_OPTIONS) private readonly approvals: ApprovalsOptions,
  ) {}

  async check(c: CheckCommand): Promise<ToolCallCheck> {
    const agent = await this.agents.create(c.tenantId, c.agentType, c.principal);
    const tool = agent.tool(c.toolName);
    const answer = (fields: Partial<ToolCallCheck> & Pick<ToolCallCheck, 'next' | 'rule'>): ToolCallCheck =>
      Object.assign(
        {
          agentType: c.agentType,
          tool: c.toolName,
          bindingVersion: tool.bindingVersion,
          approvers: null,
          expiresInMs: null,
          code: null,
          reason: null,
        },
        fields,
      );
    const checked = tool.contract.input.check(c.input ?? {});
    if (!checked.ok) {
      const envelope = invalidInputEnvelope(checked.issues, c.locale);
      const issues = envelope.details?.issues as Issue[] | undefined;
      return answer({ rule: null, next: 'refuse', code: envelope.code, reason: envelope.error, issues });
    }
    const match = this.policy.decide(c.tenantId, c.agentType, tool, {
      input: checked.value ?? null,
      principal: principalFacts(c.principal, c.principal, c.agentType),
      tool: toolFacts(tool),
      now: new Date(),
      face: 'rest',
      run: { id: '', step: 0 },
    });
    const then = match ? outcomeOf(match) : null;
    const rule = match
      ? {
          id: match.rule.id,
          bindingVersion: tool.bindingVersion,
          then: match.rule.then,
          failed: match.failed,
        }
      : null;
    if (match && then === 'deny')
      return answer({
        rule,
        next: 'refuse',
        code: ErrorCode.POLICY_DENIED,
        reason: reasonOf(match, c.locale),
      });
    // What a mask or limit rule would do on the way (the bucket is not counted, nor looked up).
    const mask = then === 'mask' ? match?.rule.mask : undefined;
    const limit = then === 'limit' ? match?.rule.limit : undefined;
    // A mask whose masked input the tool's own schema refuses refuses the call, as the hook does.
    if (match && mask?.input?.length) {
      const redactor = await this.redaction.redactorFor(c.tenantId);
      const masked = maskInput(redactor, checked.value, mask, tool.contract.input);
      if (!masked.ok)
        return answer({
          rule: Object.assign({}, rule, { failed: true }),
          next: 'refuse',
          code: ErrorCode.POLICY_DENIED,
          reason: reasonOf(unfitMask(match, masked.issues), c.locale),
        });
    }
    // The input guardrail, as the pipeline's guardrail hook would find (after the rules).
    const check = tool.guardrails?.input;
    const found = check ? scanContent(checked.value, check, false).found : [];
    const guardrail = found.length && check ? { found: [...found], action: check.action } : undefined;
    const onTheWay: Partial<ToolCallCheck> = {
      ...(mask ? { masked: { input: mask.input ?? [], output: mask.output ?? [] } } : {}),
      ...(limit ? { limit } : {}),
      ...(guardrail ? { guardrail } : {}),
    };
    if (guardrail?.action === 'block')
      return answer({
        rule,
        next: 'refuse',
        code: ErrorCode.POLICY_DENIED,
        reason:
          c.locale === 'en'
            ? `the input carries what this tool may not receive (${found.join(', ')})`
            : `输入中含有该工具不得接收的内容（${found.join(', ')}）`,
        ...onTheWay,
      });
    // The approval gate's own decision, as it would take it (a grant of an `once` tool is not looked up).
    const l3 = tool.contract.risk.level === 'L3';
    const asks = then === 'require_approval' || guardrail?.action === 'require_approval';
    if (!asks && !l3 && tool.approval === 'never') return answer({ rule, next: 'run', ...onTheWay });
    const tenant = await this.bindings.tenant(c.tenantId);
    const settings = tenantApprovalSettingsSchema.safeParse(tenant?.settings.approvals ?? {});
    const platformRequired = l3 && settings.success && settings.data.twoApproversForL3 ? 2 : 1;
    const ruled = then === 'require_approval' ? match?.rule : undefined;
    return answer({
      rule,
      next: 'park',
      approvers: Math.max(platformRequired, ruled?.approvers ?? 1),
      expiresInMs: Math.min(this.approvals.expiryMs, ruled?.expiresInMs ?? this.approvals.expiryMs),
      approverGroup: ruled?.approverGroup ?? null,
      ...onTheWay,
    });
  }
}
