import type { ApprovalView as ContractApprovalView, ApprovalMode, RiskLevel } from '@toolgate/contract';
import type { ApprovalDecisionEntity } from '../entities/approval-decision.entity.js';
import type { ApprovalEntity } from '../entities/approval.entity.js';

/** An approval as the approvals API and the console inbox show it. */
export function toApprovalView(a: ApprovalEntity, decisions: readonly ApprovalDecisionEntity[]) {
  return {
    approvalId: a.id,
    callId: a.callId,
    tenantId: a.tenantId,
    agentType: a.agentType,
    tool: a.tool,
    implementation: a.implementation,
    // Stored from the tool's declaration and the binding, so always one of the contract's words.
    riskLevel: a.riskLevel as RiskLevel,
    prompt: a.prompt,
    ...(a.promptError ? { promptError: a.promptError } : {}),
    input: a.inputRedacted,
    requestedBy: a.requestedBy,
    status: a.status,
    mode: a.mode as ApprovalMode,
    requiredApprovals: a.required,
    ...(a.approverGroup ? { approverGroup: a.approverGroup } : {}),
    decisions: decisions.map((d) => ({
      approverId: d.approverId,
      ...(d.approverType === 'api_key' || d.approverType === 'user' ? { approverType: d.approverType } : {}),
      ...(d.approverName ? { approverName: d.approverName } : {}),
      ...(d.approverEmail ? { approverEmail: d.approverEmail } : {}),
      decision: d.decision,
      comment: d.comment,
      decidedAt: d.decidedAt.toISOString(),
    })),
    createdAt: a.createdAt.toISOString(),
    expiresAt: a.expiresAt.toISOString(),
    decidedAt: a.decidedAt ? a.decidedAt.toISOString() : null,
  } satisfies ContractApprovalView;
}
export type ApprovalView = ReturnType<typeof toApprovalView>;
