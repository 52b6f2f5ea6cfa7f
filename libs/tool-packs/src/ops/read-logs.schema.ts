import { z } from 'zod';
import {
  DEFAULT_LOG_LEVEL,
  DEFAULT_LOG_LIMIT,
  DEFAULT_LOG_WINDOW,
  LOG_LEVELS,
  LOG_WINDOWS,
  MAX_LOG_LIMIT,
} from './ops.constants.js';
import { serviceNameField } from './service-name.schema.js';

/** Input of `read_logs` (docs/tool-design-rules.md §4.11). */
export const readLogsInput = z.object({
  service: serviceNameField,
  window: z.enum(LOG_WINDOWS).default(DEFAULT_LOG_WINDOW).describe('时间窗：最近 5 分钟、1 小时或 24 小时'),
  level: z
    .enum(LOG_LEVELS)
    .default(DEFAULT_LOG_LEVEL)
    .describe('error 只看错误；warn 看警告和错误；all 含普通日志'),
  limit: z.number().int().min(1).max(MAX_LOG_LIMIT).default(DEFAULT_LOG_LIMIT).describe('最多返回的行数'),
});

/** Output of `read_logs`. */
export const readLogsOutput = z.object({
  lines: z.array(z.string()).describe('日志行，最新的在前'),
  truncated: z.boolean().describe('true 表示还有更多匹配的行：缩小时间窗或提高级别'),
});

/** The validated input, defaults filled in. */
export type ReadLogsInput = z.output<typeof readLogsInput>;
/** What the tool returns. */
export type ReadLogsOutput = z.output<typeof readLogsOutput>;
