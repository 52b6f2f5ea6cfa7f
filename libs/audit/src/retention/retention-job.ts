import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { runPeriodically } from '@toolgate/database';
import { AuditAlarms } from '../alarms/audit-alarms.js';
import { SiemForwarder } from '../siem/siem-forwarder.js';
import { ARCHIVE_STORE, type ArchiveStore } from '../archive/archive-store.js';
import { AUDIT_OPTIONS, type AuditOptions } from '../audit.options.js';
import { AuditTrail } from '../audit-trail.js';
import { AuditCallsRepository } from '../calls/audit-calls.repository.js';
import { CallProjector } from '../calls/call-projector.js';
import { CheckpointRepository } from '../chain/checkpoint.repository.js';
import { rangeOfKey, tenantArchivePrefix, type ArchiveManifest } from './archive-format.js';
import { ArchiveWriter } from './archive-writer.js';
import { Purger } from './purger.js';
import { RetentionPolicy, type EffectiveRetention } from './retention-policy.js';
import { RetentionRepository } from './retention.repository.js';

const DAY_MS = 86_400_000;

/** What one run did for one tenant. */
export interface TenantRetentionRun {
  readonly tenantId: string;
  readonly at: Date;
  readonly archivedFiles: number;
  readonly archivedEvents: number;
  readonly purgedEvents: number;
  readonly purgedCalls: number;
  /** How long archiving took (ms), and purging (0 when nothing was purged). */
  readonly archiveMs: number;
  readonly purgeMs: number;
  /** Why nothing (more) was purged: `hold`, or the purge cannot run here (see Purger). */
  readonly purgeSkipped?: string;
  readonly problem?: string;
}

/** A tenant's retention and how far its trail is archived and purged (`GET /v1/audit/retention`). */
export interface TenantRetentionStatus {
  readonly tenantId: string;
  readonly retention: EffectiveRetention;
  readonly headSeq: number;
  readonly archivedThroughSeq: number;
  readonly archivedFiles: number;
  readonly archivedAt: Date | null;
  readonly purgedThroughSeq: number;
  readonly purgedEvents: number;
  readonly purgedAt: Date | null;
  /** Set when purging cannot run on this deployment (the reason), null when it can. */
  readonly purgeUnavailable: string | null;
  readonly lastRun: TenantRetentionRun | null;
}

/**
 * The archive-then-purge job (ADR 037), every `audit.retention.archiveIntervalMs` on every gateway
 * (or now, through `run`): for each chain, archive its closed ranges, then — unless the tenant is on
 * legal hold — purge the archived ranges whose newest event is older than the tenant's retention.
 * Gateways running it side by side are safe: both moves are compare-and-move.
 */
@Injectable()
export class RetentionJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditRetention');
  private stop?: () => void;
  private running?: Promise<TenantRetentionRun[]>;
  private readonly lastRuns = new Map<string, TenantRetentionRun>();
  /** Totals since this process started, for /metrics. */
  readonly totals = { runs: 0, failures: 0, archivedFiles: 0, archivedEvents: 0, purgedEvents: 0 };

  constructor(
    private readonly writer: ArchiveWriter,
    private readonly purger: Purger,
    private readonly policy: RetentionPolicy,
    private readonly repo: RetentionRepository,
    private readonly checkpoints: CheckpointRepository,
    private readonly trail: AuditTrail,
    private readonly projector: CallProjector,
    private readonly calls: AuditCallsRepository,
    @Inject(ARCHIVE_STORE) private readonly store: ArchiveStore,
    @Inject(AUDIT_OPTIONS) private readonly options: AuditOptions,
    // With SIEM sinks configured, nothing is purged before every sink has sent it (ADR 038).
    @Optional() private readonly siem?: SiemForwarder,
    // A failed archive or purge is an alarm like a failed write (等保 8.1.4.3 d, ADR 039).
    @Optional() private readonly alarms?: AuditAlarms,
  ) {}

  onApplicationBootstrap(): void {
    const every = this.options.retention.archiveIntervalMs;
    if (every <= 0) return;
    this.stop = runPeriodically(
      every,
      () => this.run(),
      (err) => this.logger.warn(`retention run failed: ${err.message}`),
    );
  }

  onApplicationShutdown(): void {
    this.stop?.();
  }

  /**
   * Archives and purges now (every chain, or one tenant's); concurrent callers share a pass.
   * `now` stands for the time retention is measured against (tests of a six-month floor cannot
   * wait six months; the HTTP route never sets it).
   */
  async run(tenantId?: string, o: { now?: Date } = {}): Promise<TenantRetentionRun[]> {
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.pass(tenantId, o.now ?? new Date());
    try {
      return await this.running;
    } finally {
      this.running = undefined;
    }
  }

  /** Where each tenant stands (all the platform knows, or those given). */
  async status(tenantIds: readonly string[] | null): Promise<TenantRetentionStatus[]> {
    const [cursors, boundaries, heads] = await Promise.all([
      this.repo.archiveCursors(),
      this.repo.boundaries(),
      this.heads(),
    ]);
    const ids = tenantIds ?? [...new Set([...(await this.policy.tenantIds()), ...heads.keys()])].sort();
    const unavailable = this.purger.unavailable();
    const out: TenantRetentionStatus[] = [];
    for (const tenantId of ids) {
      const c = cursors.get(tenantId);
      const b = boundaries.get(tenantId);
      out.push({
        tenantId,
        retention: await this.policy.effective(tenantId),
        headSeq: heads.get(tenantId) ?? 0,
        archivedThroughSeq: c?.seq ?? 0,
        archivedFiles: c?.files ?? 0,
        archivedAt: c?.archivedAt ?? null,
        purgedThroughSeq: b?.seq ?? 0,
        purgedEvents: b?.events ?? 0,
        purgedAt: b?.purgedAt ?? null,
        purgeUnavailable: unavailable,
        lastRun: this.lastRuns.get(tenantId) ?? null,
      });
    }
    return out;
  }

  private async heads(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const t of await this.checkpoints.chainTenants())
      out.set(t, (await this.checkpoints.chainHead(t))?.seq ?? 0);
    return out;
  }

  private async pass(only: string | undefined, now: Date): Promise<TenantRetentionRun[]> {
    this.totals.runs++;
    const tenants = (await this.checkpoints.chainTenants()).filter((t) => !only || t === only);
    const out: TenantRetentionRun[] = [];
    for (const tenantId of tenants) {
      const run = await this.tenant(tenantId, now).catch((err: Error): TenantRetentionRun => ({
        tenantId,
        at: new Date(),
        archivedFiles: 0,
        archivedEvents: 0,
        purgedEvents: 0,
        purgedCalls: 0,
        archiveMs: 0,
        purgeMs: 0,
        problem: err.message,
      }));
      if (run.problem) {
        this.totals.failures++;
        this.logger.error(`retention of ${tenantId}: ${run.problem}`);
        this.alarms?.raise('audit_retention_failed', run.problem, tenantId);
      }
      this.totals.archivedFiles += run.archivedFiles;
      this.totals.archivedEvents += run.archivedEvents;
      this.totals.purgedEvents += run.purgedEvents;
      this.lastRuns.set(tenantId, run);
      out.push(run);
    }
    return out;
  }

  private async tenant(tenantId: string, now: Date): Promise<TenantRetentionRun> {
    const at = new Date();
    const archived = await this.writer.archiveTenant(tenantId, {
      wholeDays: this.options.retention.wholeDays,
    });
    const base = {
      tenantId,
      at,
      archivedFiles: archived.files,
      archivedEvents: archived.events,
      purgedEvents: 0,
      purgedCalls: 0,
      archiveMs: Date.now() - at.getTime(),
      purgeMs: 0,
    };
    if (archived.problem) return { ...base, problem: archived.problem };
    const retention = await this.policy.effective(tenantId);
    if (retention.hold) return { ...base, purgeSkipped: 'hold' };
    const unavailable = this.purger.unavailable();
    if (unavailable) return { ...base, purgeSkipped: unavailable };
    const cutoff = now.getTime() - retention.days * DAY_MS;
    const delivered = (await this.siem?.deliveredThrough(tenantId)) ?? Number.MAX_SAFE_INTEGER;
    const target = await this.purgeTarget(tenantId, cutoff, Math.min(archived.through, delivered));
    if (!target) {
      const due =
        delivered < archived.through && (await this.purgeTarget(tenantId, cutoff, archived.through));
      return due
        ? { ...base, purgeSkipped: `waiting for the SIEM sinks (all have sent through seq ${delivered})` }
        : base;
    }
    // The call projection must have read every event the purge removes: a projector batch still
    // holding such events would write their calls back after the purge dropped them. Once the
    // projection's cursor is past the target no such batch can commit (its cursor move fails).
    const projected = await this.projectedThrough(tenantId, target.seq);
    if (projected < target.seq)
      return { ...base, purgeSkipped: `waiting for the call projection (through seq ${projected})` };
    const purgeStart = Date.now();
    const purged = await this.purger.purge(tenantId, target, () => this.policy.onHold(tenantId));
    const purgeMs = Date.now() - purgeStart;
    if (purged.events > 0)
      await this.trail.record([
        {
          event: 'audit_purged',
          tenantId,
          actor: { type: 'system', id: 'retention' },
          status: purged.problem ? 'error' : 'ok',
          details: {
            throughSeq: purged.through,
            events: purged.events,
            calls: purged.calls,
            retentionDays: retention.days,
            archivedThroughSeq: archived.through,
            archive: this.store.location,
          },
        },
      ]);
    return {
      ...base,
      purgedEvents: purged.events,
      purgedCalls: purged.calls,
      purgeMs,
      ...(purged.problem ? { problem: purged.problem } : {}),
      ...(purged.stoppedByHold ? { purgeSkipped: 'hold' } : {}),
    };
  }

  /** How far the tenant's calls are projected, after catching the projection up if it is behind. */
  private async projectedThrough(tenantId: string, seq: number): Promise<number> {
    const projected = await this.calls.projectedThrough(tenantId);
    if (projected >= seq) return projected;
    await this.projector.catchUp();
    return this.calls.projectedThrough(tenantId);
  }

  /**
   * The end of the newest archived range, past the purge boundary, whose newest event is older
   * than the retention: ranges are read oldest first and the walk stops at the first too young.
   */
  private async purgeTarget(
    tenantId: string,
    cutoff: number,
    archivedThrough: number,
  ): Promise<{ seq: number; hash: string } | null> {
    const purged = (await this.repo.boundary(tenantId))?.seq ?? 0;
    let target: { seq: number; hash: string } | null = null;
    const manifests = (await this.store.list(tenantArchivePrefix(tenantId)))
      .map((key) => ({ key, range: rangeOfKey(key) }))
      .filter((m) => m.range && m.range.lastSeq > purged && m.range.lastSeq <= archivedThrough);
    for (const { key } of manifests) {
      const body = await this.store.get(key);
      if (!body) break;
      const m = JSON.parse(body.toString('utf8')) as ArchiveManifest;
      if (Date.parse(m.lastOccurredAt) >= cutoff) break;
      target = { seq: m.lastSeq, hash: m.lastHash };
    }
    return target;
  }
}
