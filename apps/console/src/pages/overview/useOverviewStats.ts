/** The overview's data: stats of the chosen range, as chart series and per-tool totals. */
import { useMemo } from 'react';
import { useStatsQuery } from '../../api/queries';
import { buildSeries, totalsByTool, type GroupBy } from './stats-series';

export type RangeKey = '1h' | '24h' | '7d';
export const RANGE_KEYS: readonly RangeKey[] = ['1h', '24h', '7d'];

/** Each range and the bucket width that gives it a readable number of points. */
const RANGES: Record<RangeKey, { ms: number; bucketMinutes: number }> = {
  '1h': { ms: 3_600_000, bucketMinutes: 5 },
  '24h': { ms: 86_400_000, bucketMinutes: 60 },
  '7d': { ms: 7 * 86_400_000, bucketMinutes: 360 },
};

/** Stats of the range `rangeKey` ending at `now` (ms), grouped by tenant or by tool. */
export function useOverviewStats(rangeKey: RangeKey, groupBy: GroupBy, now: number) {
  const range = RANGES[rangeKey];
  const span = useMemo(
    () => ({ from: now - range.ms, to: now, bucketMs: range.bucketMinutes * 60_000 }),
    [now, range],
  );
  const query = useMemo(
    () => ({
      from: new Date(span.from).toISOString(),
      to: new Date(span.to).toISOString(),
      bucketMinutes: range.bucketMinutes,
    }),
    [span, range.bucketMinutes],
  );
  const stats = useStatsQuery(query);
  const buckets = useMemo(() => stats.data?.buckets ?? [], [stats.data]);
  const series = useMemo(() => buildSeries(buckets, groupBy, span), [buckets, groupBy, span]);
  const totals = useMemo(() => totalsByTool(buckets), [buckets]);
  return {
    stats,
    series,
    totals,
    calls: totals.reduce((n, x) => n + x.calls, 0),
    errors: totals.reduce((n, x) => n + x.errors, 0),
  };
}
