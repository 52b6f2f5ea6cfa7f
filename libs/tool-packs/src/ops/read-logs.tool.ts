import type { ToolContext, ToolDeclaration, ToolModelOutput } from '@toolgate/toolkit';
import { callOpsApi } from './ops-api.call.js';
import { MODEL_SUMMARY_LINES } from './ops.constants.js';
import {
  readLogsInput,
  readLogsOutput,
  type ReadLogsInput,
  type ReadLogsOutput,
} from './read-logs.schema.js';

/** `read_logs`: L1 (logs may hold personal data), the first full example of docs/tool-design-rules.md §4.11. */
export const readLogsTool: ToolDeclaration<ReadLogsInput, ReadLogsOutput> = {
  name: 'read_logs',
  description:
    '查询服务日志。按服务、时间窗和级别过滤，返回最近的日志行（最新的在前）。' +
    '只用于排查具体故障，不要用它做统计汇总（那是 query_metrics 的职责）。' +
    'truncated 为 true 时说明还有更多匹配行，应缩小时间窗或提高级别，而不是加大 limit。',
  inputSchema: readLogsInput,
  keyFields: ['service'],
  outputSchema: readLogsOutput,
  risk: { level: 'L1', dataDomains: ['ops.logs'], estimatedDurationMs: 800 },
  toModelOutput: summarizeLogs,
};

/**
 * The body of `read_logs`. Asks upstream for one line more than `limit` and drops it: that extra
 * line is how the tool knows, without a count query, that there is more (docs/tool-design-rules.md §4.11).
 */
export async function readLogs(
  { service, window, level, limit }: ReadLogsInput,
  ctx: ToolContext,
): Promise<ReadLogsOutput> {
  const found = await callOpsApi(ctx, service, (ops, signal) =>
    ops.searchLogs({ service, window, level, limit: limit + 1 }, signal),
  );
  return { lines: found.lines.slice(0, limit), truncated: found.lines.length > limit };
}

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
