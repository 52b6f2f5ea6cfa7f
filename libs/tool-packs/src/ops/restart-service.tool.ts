import { always, type ToolContext, type ToolDeclaration } from '@toolgate/toolkit';
import { callOpsApi } from './ops-api.call.js';
import { RESTART_TIMEOUT_MS } from './ops.constants.js';
import {
  restartServiceInput,
  restartServiceOutput,
  type RestartServiceInput,
  type RestartServiceOutput,
} from './restart-service.schema.js';

/** `restart_service`: L3, approval on every call, the side-effect example of docs/tool-design-rules.md §4.11. */
export const restartServiceTool: ToolDeclaration<RestartServiceInput, RestartServiceOutput> = {
  name: 'restart_service',
  description:
    '滚动重启一个服务的全部实例，会造成约 10-30 秒不可用。每次调用都需要人工审批。' +
    '只在用户明确要求重启并给出原因时使用；不要用它排查问题（先用 get_service_status 和 read_logs）。',
  inputSchema: restartServiceInput,
  keyFields: ['service'],
  outputSchema: restartServiceOutput,
  risk: { level: 'L3', dataDomains: ['ops.services'], estimatedDurationMs: 20_000 },
  timeoutMs: RESTART_TIMEOUT_MS,
  approval: {
    request: always(),
    prompt: ({ input }) => `重启 ${input.service}？影响：全部实例滚动重启，约 10-30 秒不可用。`,
  },
  label: { start: ({ service }) => `重启 ${service}` },
};

/**
 * The body of `restart_service`. Approval does not replace deduplication: a call re-run after an
 * interruption must not restart twice, so the call's stable `ctx.idempotencyKey` goes upstream
 * (docs/tool-design-rules.md §4.10), and the same key also makes the client's retries safe.
 */
export async function restartService(
  { service, reason }: RestartServiceInput,
  ctx: ToolContext,
): Promise<RestartServiceOutput> {
  // Scheduled and anonymous calls have no current principal: the change log then says null.
  const requestedBy = ctx.session.auth.current?.principalId ?? null;
  const dto = await callOpsApi(ctx, service, (ops, signal) =>
    ops.restart(service, { reason, requestedBy }, ctx.idempotencyKey, signal),
  );
  return { service: dto.service, restarted: true, at: dto.at, restartId: dto.restart_id };
}
