import { defineToolContract, type ToolModelOutput } from '@toolgate/toolkit';
import { z } from 'zod';
import { callOpsApi } from './ops-api.call.js';
import {
  DEFAULT_LOG_LEVEL,
  DEFAULT_LOG_LIMIT,
  DEFAULT_LOG_WINDOW,
  LOG_LEVELS,
  LOG_WINDOWS,
  MAX_LOG_LIMIT,
  MODEL_SUMMARY_LINES,
} from './ops.constants.js';
import { serviceNameField } from './service-name.schema.js';

/** Output of `read_logs`. */
const readLogsOutput = z.object({
  lines: z.array(z.string()).describe('日志行，最新的在前'),
  truncated: z.boolean().describe('true 表示还有更多匹配的行：缩小时间窗或提高级别'),
});

/** What the tool returns. */
export type ReadLogsOutput = z.output<typeof readLogsOutput>;

/**
 * `read_logs`: L1 (logs may hold personal data), the first full example of
 * docs/tool-design-rules.md §4.11. The body asks upstream for one line more than `limit` and drops
 * it: that extra line is how the tool knows, without a count query, that there is more.
 */
export const readLogs = defineToolContract({
  name: 'read_logs',
  description:
    '查询服务日志。按服务、时间窗和级别过滤，返回最近的日志行（最新的在前）。' +
    '只用于排查具体故障，不要用它做统计汇总（那是 query_metrics 的职责）。' +
    'truncated 为 true 时说明还有更多匹配行，应缩小时间窗或提高级别，而不是加大 limit。',
  inputSchema: z.object({
    service: serviceNameField,
    window: z.enum(LOG_WINDOWS).default(DEFAULT_LOG_WINDOW).describe('时间窗：最近 5 分钟、1 小时或 24 小时'),
    level: z
      .enum(LOG_LEVELS)
      .default(DEFAULT_LOG_LEVEL)
      .describe('error 只看错误；warn 看警告和错误；all 含普通日志'),
    limit: z.number().int().min(1).max(MAX_LOG_LIMIT).default(DEFAULT_LOG_LIMIT).describe('最多返回的行数'),
  }),
  keyFields: ['service'],
  outputSchema: readLogsOutput,
  risk: { level: 'L1', dataDomains: ['ops.logs'], estimatedDurationMs: 800 },
  toModelOutput: summarizeLogs,
}).implement(async ({ service, window, level, limit }, ctx) => {
  const found = await callOpsApi(ctx, service, (ops, signal) =>
    ops.searchLogs({ service, window, level, limit: limit + 1 }, signal),
  );
  return { lines: found.lines.slice(0, limit), truncated: found.lines.length > limit };
});

/**
 * What the model sees: the count and the first lines only. Channels and hooks still get every
 * line; the model needs the gist to decide its next step (docs/tool-design-rules.md §4.13, exercise 3).
 */
export function summarizeLogs(output: ReadLogsOutput): ToolModelOutput {
  const { lines, truncated } = output;
  if (!lines.length) return { type: 'text', value: '没有匹配的日志行。' };
  const more = truncated ? '，还有更多匹配行未返回（可缩小时间窗或提高级别）' : '';
  const sample = lines.slice(0, MODEL_SUMMARY_LINES);
  return {
    type: 'text',
    value: `共返回 ${lines.length} 行${more}。最新的 ${sample.length} 行：\n${sample.join('\n')}`,
  };
}
