import type { CallStatus } from '@toolgate/calls';
import type { TaskStatus } from '@modelcontextprotocol/sdk/types.js';
import type { McpTaskEntity } from './mcp-task.entity.js';

/** What a task needs of its call record (`tool_calls`). */
export interface CallSnapshot {
  readonly status: CallStatus;
  readonly envelope: Record<string, unknown> | null;
  readonly approvalId: string | null;
  readonly updatedAt: Date;
}

/** How a terminal task answers `tasks/result`. */
export type TaskOutcome =
  /** The CallToolResult stored when the call answered without parking. */
  | { readonly kind: 'result'; readonly result: Record<string, unknown> }
  /** The envelope the call record ended with (ok, or an error: denied, expired, failed, ...). */
  | { readonly kind: 'envelope'; readonly envelope: Record<string, unknown> }
  /** Nothing to give but the fact (cancelled before the call answered). */
  | { readonly kind: 'none' };

/** A task as read from its row and its call record. */
export interface TaskState {
  readonly status: TaskStatus;
  readonly statusMessage: string;
  readonly lastUpdatedAt: Date;
  /** Set once `status` is terminal. */
  readonly outcome?: TaskOutcome;
}

/** The envelope of a call whose gateway stopped before it answered (as the call records say it). */
export const LOST_ENVELOPE = {
  error: 'The gateway running this call stopped; its outcome is unknown',
  code: 'INTERRUPTED',
  suggestedAction: 'Check GET /v1/calls/{callId} and the audit trail before calling the tool again',
} as const;

const isOkEnvelope = (e: Record<string, unknown>) => e['status'] === 'ok';

const later = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);

/**
 * The task's status by the spec's words (2025-11-25, "Task Status"):
 * - a call waiting for a person's approval is `working`, not `input_required`: that status means
 *   the receiver needs input *from the requestor* through `tasks/result` (an elicitation), while
 *   the approver is someone else, reached outside MCP;
 * - a tool result with `isError` is `failed` ("for tool calls specifically, this includes cases
 *   where the tool call result has isError set to true"); `tasks/result` still answers exactly
 *   that result, APPROVAL_DENIED and APPROVAL_EXPIRED envelopes included.
 */
export function taskStateOf(
  row: McpTaskEntity,
  call: CallSnapshot | null,
  now: Date,
  lostAfterMs: number,
): TaskState {
  const at = call ? later(row.updatedAt, call.updatedAt) : row.updatedAt;
  if (row.status === 'cancelled') {
    const envelope = call?.envelope;
    return {
      status: 'cancelled',
      statusMessage: 'Cancelled by its requester',
      lastUpdatedAt: row.updatedAt,
      outcome: envelope ? { kind: 'envelope', envelope } : { kind: 'none' },
    };
  }
  if (row.status === 'settled' && row.result) {
    const failed = row.result['isError'] === true;
    return {
      status: failed ? 'failed' : 'completed',
      statusMessage: failed ? 'The call ended with an error' : 'The call succeeded',
      lastUpdatedAt: row.updatedAt,
      outcome: { kind: 'result', result: row.result },
    };
  }
  if (call) {
    switch (call.status) {
      case 'pending_approval':
        return {
          status: 'working',
          statusMessage: `Waiting for approval ${call.approvalId}`,
          lastUpdatedAt: at,
        };
      case 'queued':
      case 'running':
        return {
          status: 'working',
          statusMessage: call.approvalId ? 'Approved; the call is running' : 'The call is running',
          lastUpdatedAt: at,
        };
      case 'succeeded':
      case 'failed':
      case 'denied':
      case 'expired':
      case 'interrupted': {
        const envelope = call.envelope ?? { ...LOST_ENVELOPE };
        const failed = !isOkEnvelope(envelope);
        return {
          status: failed ? 'failed' : 'completed',
          statusMessage: messageOf(call.status),
          lastUpdatedAt: at,
          outcome: { kind: 'envelope', envelope },
        };
      }
    }
  }
  if (now.getTime() - row.createdAt.getTime() > lostAfterMs) {
    return {
      status: 'failed',
      statusMessage: messageOf('interrupted'),
      lastUpdatedAt: at,
      outcome: { kind: 'envelope', envelope: { ...LOST_ENVELOPE } },
    };
  }
  return { status: 'working', statusMessage: 'The call is running', lastUpdatedAt: at };
}

function messageOf(status: CallStatus): string {
  switch (status) {
    case 'succeeded':
      return 'The call succeeded';
    case 'denied':
      return 'The approval was denied; the tool did not run';
    case 'expired':
      return 'The approval expired undecided; the tool did not run';
    case 'interrupted':
      return 'The gateway running the call stopped; its outcome is unknown';
    default:
      return 'The call ended with an error';
  }
}

export const isTerminalStatus = (s: TaskStatus) => s === 'completed' || s === 'failed' || s === 'cancelled';
