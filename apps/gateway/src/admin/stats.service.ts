import { Injectable } from '@nestjs/common';
import { ApprovalReader } from '@toolgate/approvals';
import { AuditEventsRepository } from '@toolgate/audit';
import type { Stats } from '@toolgate/contract';
import { TokenBudget } from '@toolgate/quotas';
import { RunStatsRepository } from '@toolgate/runs';

/**
 * Upper bounds (ms, inclusive) of the duration classes p95 is estimated from, Prometheus-style;
 * one more class catches everything slower than the last bound.
 */
export const STATS_DURATION_BOUNDS_MS = [
  5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000,
] as const;

const P95 = 0.95;

/** What the database counted for one duration class of one (time bucket, tenant, tool). */
interface DurationClass {
  readonly index: number;
  readonly calls: number;
  readonly minMs: number;
  readonly maxMs: number;
}

interface Bucket {
  start: string;
  tenantId: string;
  tool: string;
  calls: number;
  errors: number;
  classes: DurationClass[];
}

/**
 * p95 estimated from a histogram, not computed from every duration: the database hands back counts
 * per duration class (plus each class's shortest and longest duration), the 95th-percentile rank
 * is located in its class, and the value is interpolated linearly between that class's shortest and
 * longest duration. It is exact when the class holds one distinct duration and otherwise off by at
 * most the spread of that class (e.g. 100–250 ms), which is what the overview's chart needs.
 */
function p95Estimate(classes: readonly DurationClass[], calls: number): number {
  if (!calls) return 0;
  const rank = P95 * calls;
  let below = 0;
  for (const c of [...classes].sort((x, y) => x.index - y.index)) {
    if (below + c.calls >= rank) {
      const within = Math.max(0, rank - below) / c.calls;
      return Math.round(c.minMs + (c.maxMs - c.minMs) * within);
    }
    below += c.calls;
  }
  return classes.reduce((m, c) => Math.max(m, c.maxMs), 0);
}

/**
 * The overview's numbers: audited calls, errors and p95 latency per tenant, tool and time bucket,
 * plus what waits for people (pending approvals) and what lost its process (incomplete calls), and
 * agent runs: per tenant and agent type in the window, and each tenant's tokens of the UTC day.
 * Calls and errors are exact counts; p95 is a histogram estimate (see p95Estimate). L0 calls are
 * not audited, so they are in /metrics, not here.
 */
@Injectable()
export class StatsService {
  constructor(
    private readonly events: AuditEventsRepository,
    private readonly approvals: ApprovalReader,
    private readonly runs: RunStatsRepository,
    private readonly tokens: TokenBudget,
  ) {}

  async stats(scope: string | null, from: Date, to: Date, bucketMinutes: number): Promise<Stats> {
    const rows = await this.events.durationHistogram(
      scope,
      from,
      to,
      bucketMinutes * 60,
      STATS_DURATION_BOUNDS_MS,
    );
    const buckets = new Map<string, Bucket>();
    for (const r of rows) {
      const start = r.start.toISOString();
      const key = `${start}|${r.tenantId}|${r.tool}`;
      let b = buckets.get(key);
      if (!b)
        buckets.set(
          key,
          (b = { start, tenantId: r.tenantId, tool: r.tool, calls: 0, errors: 0, classes: [] }),
        );
      b.calls += r.calls;
      b.errors += r.errors;
      b.classes.push({ index: r.durationClass, calls: r.calls, minMs: r.minMs, maxMs: r.maxMs });
    }
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      bucketMinutes,
      buckets: [...buckets.values()]
        .sort(
          (x, y) =>
            x.start.localeCompare(y.start) ||
            x.tenantId.localeCompare(y.tenantId) ||
            x.tool.localeCompare(y.tool),
        )
        .map(({ classes, ...b }) => ({
          ...b,
          errorRate: b.calls ? b.errors / b.calls : 0,
          p95Ms: p95Estimate(classes, b.calls),
        })),
      pendingApprovals: await this.approvals.countPending(scope),
      incompleteCalls: await this.events.countOpenCalls(scope),
      runs: {
        agentTypes: await this.runs.byAgentType(scope, from, to),
        today: await this.tokens.today(scope),
      },
    } satisfies Stats;
  }
}
