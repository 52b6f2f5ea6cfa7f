import { createHash } from 'node:crypto';
import type { ModelTool } from '@toolgate/models';
import {
  errorEnvelope,
  ErrorCode,
  invalidInputEnvelope,
  type Envelope,
  type ErrorEnvelope,
  type Locale,
} from '@toolgate/toolkit';
import type { AgentRunEntity, StoredRunPrincipal } from '../entities/agent-run.entity.js';

/**
 * Sub-agents (docs/tool-design-rules.md, seed 000), the pure part: how a delegation is named,
 * described to the model, identified and answered. sub-agents.ts does the storing and driving.
 */
export const DELEGATE_PREFIX = 'delegate_to_';

/** Providers accept tool names of at most 64 characters; a longer agent type gets no delegate tool. */
const MAX_TOOL_NAME = 64;

/** Run ids fit in 64 characters, and a child's call ids (`<runId>.<step>.<index>`) must too. */
const MAX_READABLE_CHILD_ID = 52;

/** The longest task a delegation passes on: the same bound as a run's input. */
export const MAX_TASK_LENGTH = 32_000;

/** `delegate_to_<agentType>`, or null when that name would be too long for the providers. */
export function delegateToolName(agentType: string): string | null {
  const name = `${DELEGATE_PREFIX}${agentType}`;
  return name.length <= MAX_TOOL_NAME ? name : null;
}

/** The agent type a `delegate_to_<agentType>` tool name delegates to; null for any other name. */
export function delegatedAgentType(toolName: string): string | null {
  return toolName.startsWith(DELEGATE_PREFIX) && toolName.length > DELEGATE_PREFIX.length
    ? toolName.slice(DELEGATE_PREFIX.length)
    : null;
}

/**
 * The id of the child run a delegate call starts: derived from the call id, so a resumed or
 * taken-over parent finds the child it already started instead of starting another. Dots become
 * underscores: approvals of the child's own calls (`<childRunId>.<step>.<index>`) are then traced
 * back to the child by the part before the first dot, like any run's. Deeply nested delegations
 * whose readable id would not leave room for call suffixes get `run_` and a hash of the call id.
 */
export function childRunId(callId: string): string {
  const readable = callId.replace(/\./g, '_');
  if (readable.length <= MAX_READABLE_CHILD_ID) return readable;
  return `run_${createHash('sha256').update(callId).digest('hex').slice(0, 32)}`;
}

/**
 * The child's own session (it does not see the parent's conversation, only its task): `ses_` and
 * the child run id. It is linked to the parent by `parentRunId`, and its tools see the parent's
 * session as `ctx.session.parent`.
 */
export const childSessionId = (childId: string): string => `ses_${childId.slice('run_'.length)}`;

/**
 * The principal a child run acts for: the parent's. An agent key limited to some agent types may
 * still use the sub-agents its agent type delegates to: the tenant's configuration allows that
 * delegation, not the key.
 */
export function childPrincipal(parent: StoredRunPrincipal, agentType: string): StoredRunPrincipal {
  return {
    ...parent,
    agentTypes: parent.agentTypes ? [...new Set([...parent.agentTypes, agentType])] : null,
  };
}

/** What a sub-agent is for, from its agent type: its description, else its instructions' first line. */
export function purposeOf(description: string, instructions: string): string {
  const text = description.trim() || (instructions.trim().split('\n')[0] ?? '').trim();
  return text.replace(/[。.\s]+$/u, '');
}

/** The tool the parent's model sees for one sub-agent. */
export function delegateTool(name: string, agentType: string, purpose: string, locale: Locale): ModelTool {
  const zh = locale === 'zh-CN';
  const what = purpose ? (zh ? `（${purpose}）` : ` (${purpose})`) : '';
  return {
    name,
    description: zh
      ? `把一项任务交给子代理 ${agentType}${what}。它用自己的工具独立完成任务，并把结果作为答复返回。它看不到当前对话，请把所需的全部信息写进 task。`
      : `Delegates a task to the sub-agent ${agentType}${what}. It works on the task on its own, with its own tools, and answers with its result. It does not see this conversation: put everything it needs into the task.`,
    parameters: {
      type: 'object',
      properties: {
        task: {
          type: 'string',
          description: zh
            ? '交给子代理的任务，写明全部细节'
            : 'The task for the sub-agent, with every detail it needs',
        },
      },
      required: ['task'],
    },
  };
}

/** A delegate call's task, or the INVALID_INPUT envelope the model gets to correct its call. */
export function delegateTask(input: unknown, locale: Locale): string | ErrorEnvelope {
  const task = (input as { task?: unknown } | null)?.task;
  if (task === undefined || task === null)
    return invalidInputEnvelope([{ kind: 'missing', path: ['task'], expected: 'string' }], locale);
  if (typeof task !== 'string')
    return invalidInputEnvelope(
      [{ kind: 'type', path: ['task'], expected: 'string', received: typeof task }],
      locale,
    );
  if (!task.trim() || task.length > MAX_TASK_LENGTH)
    return invalidInputEnvelope(
      [
        {
          kind: 'other',
          path: ['task'],
          message: `a task of 1 to ${MAX_TASK_LENGTH} characters`,
        },
      ],
      locale,
    );
  return task;
}

export const ENDED_RUN = new Set(['completed', 'failed', 'cancelled']);

/** What a delegate call answers once its child run has ended. */
export interface DelegateResult {
  readonly status: 'succeeded' | 'failed';
  readonly envelope: Envelope;
  /** What the parent's model reads: the child's answer, or the error envelope. */
  readonly modelText: string;
}

/**
 * The outcome of an ended child as its delegate call's: completed → `{data: {runId, output}}` and
 * the model reads the output; failed or cancelled → the child's error envelope, with the child's
 * run id in its details.
 */
export function delegateResult(
  child: Pick<AgentRunEntity, 'runId' | 'status' | 'output' | 'error'>,
  locale: Locale,
): DelegateResult {
  if (child.status === 'completed') {
    const output = child.output ?? '';
    return {
      status: 'succeeded',
      envelope: { status: 'ok', data: { runId: child.runId, output } },
      modelText: output,
    };
  }
  const error = (child.error as ErrorEnvelope | null) ?? errorEnvelope(ErrorCode.INTERNAL_ERROR, locale);
  const envelope: ErrorEnvelope = { ...error, details: { ...error.details, runId: child.runId } };
  return { status: 'failed', envelope, modelText: JSON.stringify(envelope) };
}
