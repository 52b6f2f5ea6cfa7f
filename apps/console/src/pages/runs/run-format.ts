/** Display helpers of the runs pages. */
import type { Translate } from '../../i18n';
import type { RunUsage, RunView } from '../../api/types';

/** Wall time of a finished run ("under way" while it is not), in ms or seconds. */
export function runDuration(run: Pick<RunView, 'createdAt' | 'finishedAt'>, t: Translate): string {
  if (!run.finishedAt) return t('runs.underWay');
  const ms = Date.parse(run.finishedAt) - Date.parse(run.createdAt);
  if (!Number.isFinite(ms) || ms < 0) return '—';
  return ms < 1000 ? t('common.msValue', { value: ms }) : `${(ms / 1000).toFixed(1)} s`;
}

/** Token usage as "in · out · total". */
export const usageText = (usage: RunUsage, t: Translate): string =>
  t('runs.usage', { input: usage.inputTokens, output: usage.outputTokens, total: usage.totalTokens });
