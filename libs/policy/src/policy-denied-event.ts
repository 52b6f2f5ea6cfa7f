import type { AdminEvent } from '@toolgate/audit';
import { ErrorCode, type ToolCall } from '@toolgate/toolkit';

/**
 * The `access_denied` event of a call a tenant's policy refused before its tool ran (a rule, or a
 * guardrail on the input): the call's own fields and input as the trail keeps them, with `details`
 * saying what refused it.
 */
export function policyDeniedEvent(call: ToolCall, details: Record<string, unknown>): AdminEvent {
  const { tenant, principal, agentType, face } = call.request;
  return {
    event: 'access_denied',
    tenantId: tenant?.id ?? null,
    actor: principal
      ? { type: principal.principalType, id: principal.principalId }
      : { type: 'system', id: 'system' },
    callId: call.id,
    tool: call.tool.contract.name,
    implementation: call.tool.implementation.name,
    riskLevel: call.tool.contract.risk.level,
    agentType,
    sessionId: call.ctx.session.id,
    status: 'error',
    code: ErrorCode.POLICY_DENIED,
    input: call.input ?? null,
    sensitivePaths: call.tool.contract.sensitivePaths,
    details: { ...details, ...(face ? { face } : {}) },
  };
}
