import { always, defineToolContract } from '@toolgate/toolkit';
import { z } from 'zod';
import { callOpsApi } from './ops-api.call.js';
import { MIN_RESTART_REASON_LENGTH, RESTART_TIMEOUT_MS } from './ops.constants.js';
import { serviceNameField } from './service-name.schema.js';

/**
 * `restart_service`: L3, approval on every call, the side-effect example of
 * docs/tool-design-rules.md §4.11. Approval does not replace deduplication: a call re-run after an
 * interruption must not restart twice, so the call's stable `ctx.idempotencyKey` goes upstream
 * (§4.10), and the same key also makes the client's retries safe.
 */
export const restartService = defineToolContract({
  name: 'restart_service',
  description:
    '滚动重启一个服务的全部实例，会造成约 10-30 秒不可用。每次调用都需要人工审批。' +
    '只在用户明确要求重启并给出原因时使用；不要用它排查问题（先用 get_service_status 和 read_logs）。',
  inputSchema: z.object({
    service: serviceNameField,
    reason: z.string().min(MIN_RESTART_REASON_LENGTH).describe('重启原因，会记录到变更日志'),
  }),
  keyFields: ['service'],
  outputSchema: z.object({
    service: z.string(),
    restarted: z.literal(true),
    at: z.string().describe('重启开始时间，ISO 8601'),
    restartId: z.string().describe('变更日志中的重启编号'),
  }),
  risk: { level: 'L3', dataDomains: ['ops.services'], estimatedDurationMs: 20_000 },
  timeoutMs: RESTART_TIMEOUT_MS,
  approval: {
    request: always(),
    prompt: ({ input }) => `重启 ${input.service}？影响：全部实例滚动重启，约 10-30 秒不可用。`,
  },
  label: { start: ({ service }) => `重启 ${service}` },
}).implement(async ({ service, reason }, ctx) => {
  // Scheduled and anonymous calls have no current principal: the change log then says null.
  const requestedBy = ctx.session.auth.current?.principalId ?? null;
  const dto = await callOpsApi(ctx, service, (ops, signal) =>
    ops.restart(service, { reason, requestedBy }, ctx.idempotencyKey, signal),
  );
  return { service: dto.service, restarted: true as const, at: dto.at, restartId: dto.restart_id };
});
