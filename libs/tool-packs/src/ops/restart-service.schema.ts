import { z } from 'zod';
import { MIN_RESTART_REASON_LENGTH } from './ops.constants.js';
import { serviceNameField } from './service-name.schema.js';

/** Input of `restart_service` (docs/tool-design-rules.md §4.11). */
export const restartServiceInput = z.object({
  service: serviceNameField,
  reason: z.string().min(MIN_RESTART_REASON_LENGTH).describe('重启原因，会记录到变更日志'),
});

/** Output of `restart_service`. */
export const restartServiceOutput = z.object({
  service: z.string(),
  restarted: z.literal(true),
  at: z.string().describe('重启开始时间，ISO 8601'),
  restartId: z.string().describe('变更日志中的重启编号'),
});

/** The validated input. */
export type RestartServiceInput = z.output<typeof restartServiceInput>;
/** What the tool returns. */
export type RestartServiceOutput = z.output<typeof restartServiceOutput>;
