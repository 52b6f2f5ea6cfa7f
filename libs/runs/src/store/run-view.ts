import type { RunStep, RunView } from '@toolgate/contract';
import type { AgentRunEntity } from '../entities/agent-run.entity.js';
import type { RunStepEntity } from '../entities/run-step.entity.js';
import type { RunToolCallEntity } from '../entities/run-tool-call.entity.js';
import { childRunId, delegatedAgentType } from '../loop/sub-agent-rules.js';

const usage = (inputTokens: number, outputTokens: number) => ({
  inputTokens,
  outputTokens,
  totalTokens: inputTokens + outputTokens,
});

/**
 * `GET /v1/runs/:runId`: a run with its steps, each with its tool calls, and the approvals it
 * waits for (`pending`: its own and its sub-agents'; by default its own calls').
 */
export function toRunView(
  run: AgentRunEntity,
  steps: readonly RunStepEntity[],
  calls: readonly RunToolCallEntity[],
  pending?: RunView['pendingApprovals'],
): RunView {
  const stepViews: RunStep[] = steps.map((s) => ({
    index: s.stepIndex,
    text: s.text,
    toolCalls: calls
      .filter((c) => c.stepIndex === s.stepIndex)
      .map((c) => ({
        callId: c.callId,
        tool: c.tool,
        input: c.input ?? s.toolCalls[c.callIndex]?.arguments ?? null,
        status: c.status,
        approvalId: c.approvalId,
        result: (c.result as RunStep['toolCalls'][number]['result']) ?? null,
        subRunId: delegatedAgentType(c.tool) ? childRunId(c.callId) : null,
      })),
    usage: usage(s.inputTokens, s.outputTokens),
    startedAt: s.startedAt.toISOString(),
    finishedAt: s.finishedAt?.toISOString() ?? null,
  }));
  return {
    runId: run.runId,
    tenantId: run.tenantId,
    agentType: run.agentType,
    sessionId: run.sessionId,
    parentRunId: run.parentRunId,
    status: run.status,
    model: run.model,
    input: run.input,
    output: run.output,
    error: (run.error as RunView['error']) ?? null,
    steps: stepViews,
    pendingApprovals:
      run.status !== 'awaiting_approval'
        ? []
        : (pending ??
          calls
            .filter((c) => c.status === 'pending_approval' && c.approvalId)
            .map((c) => ({ approvalId: c.approvalId!, callId: c.callId, tool: c.tool }))),
    usage: usage(run.inputTokens, run.outputTokens),
    createdAt: run.createdAt.toISOString(),
    updatedAt: run.updatedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}
