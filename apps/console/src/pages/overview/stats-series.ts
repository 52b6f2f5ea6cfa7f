/** Turns stats buckets into chart series: one per tenant (or tenant/tool), zero-filled over time. */
import type { StatsBucket } from '../../api/types';

export type GroupBy = 'tenant' | 'tool';

/** One line of a chart: [time in ms, value or null for "no data"]. */
export interface Series {
  readonly name: string;
  readonly points: [number, number | null][];
}

export interface OverviewSeries {
  readonly calls: Series[];
  readonly errorRate: Series[];
  readonly p95: Series[];
}

export interface ToolTotals {
  readonly tenantId: string;
  readonly tool: string;
  readonly calls: number;
  readonly errors: number;
  readonly p95Ms: number | null;
}

interface Cell {
  calls: number;
  errors: number;
  p95: number | null;
}

const groupOf = (b: StatsBucket, by: GroupBy) => (by === 'tenant' ? b.tenantId : `${b.tenantId} / ${b.tool}`);

/**
 * Builds the three chart families. Within a group, p95 is the largest p95 of the group's tools in
 * that bucket: percentiles do not add up, and the worst tool is what an operator looks for.
 */
export function buildSeries(
  buckets: readonly StatsBucket[],
  by: GroupBy,
  range: { from: number; to: number; bucketMs: number },
): OverviewSeries {
  const times = new Set<number>();
  const first = Math.floor(range.from / range.bucketMs) * range.bucketMs;
  for (let t = first; t <= range.to; t += range.bucketMs) times.add(t);
  const groups = new Map<string, Map<number, Cell>>();
  for (const b of buckets) {
    const at = new Date(b.start).getTime();
    const group = groupOf(b, by);
    const cells = groups.get(group) ?? groups.set(group, new Map()).get(group)!;
    const cell = cells.get(at) ?? { calls: 0, errors: 0, p95: null };
    cell.calls += b.calls;
    cell.errors += b.errors;
    if (b.p95Ms !== null) cell.p95 = Math.max(cell.p95 ?? 0, b.p95Ms);
    cells.set(at, cell);
    times.add(at);
  }
  const axis = [...times].sort((a, b) => a - b);
  const names = [...groups.keys()].sort();
  const make = (pick: (c: Cell | undefined) => number | null): Series[] =>
    names.map((name) => ({ name, points: axis.map((t) => [t, pick(groups.get(name)!.get(t))]) }));
  return {
    calls: make((c) => c?.calls ?? 0),
    errorRate: make((c) => (c && c.calls > 0 ? c.errors / c.calls : null)),
    p95: make((c) => c?.p95 ?? null),
  };
}

/** Totals per tenant and tool over the whole range (p95: the largest bucket p95). */
export function totalsByTool(buckets: readonly StatsBucket[]): ToolTotals[] {
  const map = new Map<string, ToolTotals>();
  for (const b of buckets) {
    const key = `${b.tenantId}\u0000${b.tool}`;
    const prev = map.get(key);
    map.set(key, {
      tenantId: b.tenantId,
      tool: b.tool,
      calls: (prev?.calls ?? 0) + b.calls,
      errors: (prev?.errors ?? 0) + b.errors,
      p95Ms: b.p95Ms === null ? (prev?.p95Ms ?? null) : Math.max(prev?.p95Ms ?? 0, b.p95Ms),
    });
  }
  return [...map.values()].sort((a, b) => b.calls - a.calls);
}
