import type { TenantRetentionRun, TenantRetentionStatus } from '@toolgate/audit';
import type { TenantRetention } from '@toolgate/contract';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function runView(r: TenantRetentionRun): NonNullable<TenantRetention['lastRun']> {
  return {
    at: r.at.toISOString(),
    archivedFiles: r.archivedFiles,
    archivedEvents: r.archivedEvents,
    purgedEvents: r.purgedEvents,
    purgedCalls: r.purgedCalls,
    archiveMs: r.archiveMs,
    purgeMs: r.purgeMs,
    ...(r.purgeSkipped ? { purgeSkipped: r.purgeSkipped } : {}),
    ...(r.problem ? { problem: r.problem } : {}),
  };
}

/** A tenant's retention as the contract shows it (`TenantRetention`). */
export function toRetentionView(s: TenantRetentionStatus): TenantRetention {
  const hold = s.retention.hold;
  return {
    tenantId: s.tenantId,
    retentionDays: s.retention.days,
    retentionSource: s.retention.source,
    floorDays: s.retention.floorDays,
    hold: hold ? { reason: hold.reason, by: hold.by, since: hold.since.toISOString() } : null,
    headSeq: s.headSeq,
    archivedThroughSeq: s.archivedThroughSeq,
    archivedFiles: s.archivedFiles,
    archivedAt: iso(s.archivedAt),
    purgedThroughSeq: s.purgedThroughSeq,
    purgedEvents: s.purgedEvents,
    purgedAt: iso(s.purgedAt),
    purgeUnavailable: s.purgeUnavailable,
    lastRun: s.lastRun ? runView(s.lastRun) : null,
  } satisfies TenantRetention;
}
