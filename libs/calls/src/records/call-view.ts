import type { CallState } from '@toolgate/contract';
import type { Locale } from '@toolgate/toolkit';
import type { ToolCallEntity } from '../entities/tool-call.entity.js';

/** The language the call's caller asked in: its later answers (denied, expired, failed) speak it. */
export function localeOfCall(c: Pick<ToolCallEntity, 'locale'>): Locale {
  return c.locale === 'en' ? 'en' : 'zh-CN';
}

/**
 * `GET /v1/calls/:callId` (CONTRACT.md): the status and, once there is one, the envelope.
 * A call approved and about to run (`queued`) reads as `running`.
 */
export function toCallView(c: ToolCallEntity) {
  const status = c.status === 'queued' ? 'running' : c.status;
  return {
    callId: c.callId,
    status,
    tool: c.tool,
    agentType: c.agentType,
    ...(c.approvalId ? { approvalId: c.approvalId } : {}),
    ...(c.decidedBy ? { decidedBy: c.decidedBy } : {}),
    // The stored envelope is the one the call answered (a JSON column types it loosely).
    ...(c.envelope ? { result: c.envelope as NonNullable<CallState['result']> } : {}),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  } satisfies CallState;
}
export type CallView = ReturnType<typeof toCallView>;
