import { Injectable } from '@nestjs/common';
import { ApprovalRepository } from '@toolgate/approvals';
import { AuditEventsRepository } from '@toolgate/audit';

interface Bucket {
  start: string;
  tenantId: string;
  tool: string;
  calls: number;
  errors: number;
  durations: number[];
}

function p95(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))]!;
}

/**
 * The overview's numbers: audited calls, errors and p95 latency per tenant, tool and time bucket,
 * plus what waits for people (pending approvals) and what lost its process (incomplete calls).
 * L0 calls are not audited, so they are in /metrics, not here.
 */
@Injectable()
export class StatsService {
  constructor(
    private readonly events: AuditEventsRepository,
    private readonly approvals: ApprovalRepository,
  ) {}

  async stats(scope: string | null, from: Date, to: Date, bucketMinutes: number) {
    const size = bucketMinutes * 60_000;
    const buckets = new Map<string, Bucket>();
    for (const o of await this.events.outcomesBetween(scope, from, to)) {
      const start = new Date(Math.floor(o.at.getTime() / size) * size).toISOString();
      const key = `${start}|${o.tenantId}|${o.tool}`;
      let b = buckets.get(key);
      if (!b)
        buckets.set(
          key,
          (b = { start, tenantId: o.tenantId, tool: o.tool, calls: 0, errors: 0, durations: [] }),
        );
      b.calls++;
      if (!o.ok) b.errors++;
      b.durations.push(o.durationMs);
    }
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      bucketMinutes,
      buckets: [...buckets.values()].map(({ durations, ...b }) => ({
        ...b,
        errorRate: b.calls ? b.errors / b.calls : 0,
        p95Ms: p95(durations),
      })),
      pendingApprovals: await this.approvals.countPending(scope),
      incompleteCalls: await this.events.countOpenCalls(scope),
    };
  }
}
