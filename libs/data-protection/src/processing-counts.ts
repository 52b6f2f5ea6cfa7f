import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isMysql, runPeriodically, toSqlDateTime } from '@toolgate/database';
import type { DataSource } from 'typeorm';
import { DataProtectionSections } from './data-protection-sections.js';
import {
  DATA_PROTECTION_OPTIONS,
  PROCESSING_RECORDS_FLOOR_DAYS,
  type DataProtectionOptions,
} from './data-protection.options.js';
import { ProcessingCountEntity } from './entities/processing-count.entity.js';

/** The calls counted for one (tenant, tool, recipient). */
export interface ProcessingCount {
  readonly tool: string;
  readonly recipient: string;
  readonly calls: number;
  readonly crossBorder: number;
  /** When a call was last counted; null for counters stored before it was kept. */
  readonly lastCountedAt: Date | null;
}

const INSERT =
  'INSERT INTO processing_counts (tenant_id, tool, recipient, calls, cross_border, last_at) VALUES (?, ?, ?, ?, ?, ?)';
const DAY_MS = 86_400_000;

interface Pending {
  calls: number;
  crossBorder: number;
  lastAt: Date;
}
const SEP = '\u0000';

/**
 * Counts calls that sent classified fields to a recipient. Counted in memory on the call's path
 * (no round trip per call) and added to the shared counters by one upsert per key every
 * `flushIntervalMs`, at shutdown and before a read; a gateway that dies loses at most that
 * interval's counts. The counters are the record of processing, not the trail: the trail's
 * retention never removes them; a counter goes only `countsRetentionDays` (≥ 3 years under the
 * profile, or for a tenant whose file adds `processingRecordsFloor`) after the last call it counted
 * (ADR 047, 048).
 */
@Injectable()
export class ProcessingCounts implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ProcessingCounts');
  private pending = new Map<string, Pending>();
  private stop?: () => void;
  private stopPrune?: () => void;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(DATA_PROTECTION_OPTIONS) private readonly options: DataProtectionOptions,
    private readonly sections: DataProtectionSections,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.flushIntervalMs > 0)
      this.stop = runPeriodically(
        this.options.flushIntervalMs,
        () => this.flush(),
        (err) => this.logger.warn(`processing counts not stored yet: ${err.message}`),
      );
    if (this.options.countsPruneIntervalMs > 0)
      this.stopPrune = runPeriodically(
        this.options.countsPruneIntervalMs,
        async () => void (await this.prune()),
        (err) => this.logger.warn(`processing counts past their retention not removed: ${err.message}`),
      );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stop?.();
    this.stopPrune?.();
    await this.flush().catch((err: Error) => this.logger.error(`processing counts lost: ${err.message}`));
  }

  /** One call of `tool` that sent classified fields to `recipient`. */
  count(tenantId: string, tool: string, recipient: string, crossBorder: boolean, at = new Date()): void {
    const key = [tenantId, tool, recipient].join(SEP);
    const c = this.pending.get(key) ?? { calls: 0, crossBorder: 0, lastAt: at };
    c.calls++;
    if (crossBorder) c.crossBorder++;
    if (at > c.lastAt) c.lastAt = at;
    this.pending.set(key, c);
  }

  /**
   * Removes the counters whose last call is older than `countsRetentionDays` before `now`; answers
   * how many went. Counters without a last call (stored before it was kept) stay. A tenant whose
   * file adds `processingRecordsFloor` (ADR 048) keeps its counters at least 3 years: below that,
   * the tenants holding counters past the platform's days are asked one by one (few, and rarely).
   */
  async prune(now = new Date()): Promise<number> {
    const days = this.options.countsRetentionDays;
    if (days >= PROCESSING_RECORDS_FLOOR_DAYS) return this.remove(now, days);
    const rows: { tenant_id: string }[] = await this.dataSource.query(
      'SELECT DISTINCT tenant_id FROM processing_counts WHERE last_at IS NOT NULL AND last_at < ?',
      [toSqlDateTime(new Date(now.getTime() - days * DAY_MS))],
    );
    let removed = 0;
    for (const { tenant_id: tenantId } of rows) {
      const floor = (await this.sections.of(tenantId)).compliance.processingRecordsFloor;
      removed += await this.remove(now, floor ? PROCESSING_RECORDS_FLOOR_DAYS : days, tenantId);
    }
    return removed;
  }

  private async remove(now: Date, days: number, tenantId?: string): Promise<number> {
    const before = new Date(now.getTime() - days * DAY_MS);
    const query = this.dataSource
      .createQueryBuilder()
      .delete()
      .from(ProcessingCountEntity)
      .where('last_at IS NOT NULL AND last_at < :before', { before: toSqlDateTime(before) });
    if (tenantId !== undefined) query.andWhere('tenant_id = :tenantId', { tenantId });
    return (await query.execute()).affected ?? 0;
  }

  /** The tenant's counters, this gateway's pending counts added first. */
  async of(tenantId: string): Promise<ProcessingCount[]> {
    await this.flush();
    const rows = await this.dataSource
      .getRepository(ProcessingCountEntity)
      .find({ where: { tenantId }, order: { tool: 'ASC', recipient: 'ASC' } });
    return rows.map((r) => ({
      tool: r.tool,
      recipient: r.recipient,
      calls: r.calls,
      crossBorder: r.crossBorder,
      lastCountedAt: r.lastAt,
    }));
  }

  /** Adds the pending counts to the shared counters; what fails is kept for the next flush. */
  async flush(): Promise<void> {
    const batch = this.pending;
    if (!batch.size) return;
    this.pending = new Map();
    // last_at only moves forward: another gateway may add an older batch after a newer one.
    const sql = isMysql(this.dataSource)
      ? `${INSERT} ON DUPLICATE KEY UPDATE calls = calls + VALUES(calls), cross_border = cross_border + VALUES(cross_border), last_at = GREATEST(COALESCE(last_at, VALUES(last_at)), VALUES(last_at))`
      : `${INSERT} ON CONFLICT(tenant_id, tool, recipient) DO UPDATE SET calls = calls + excluded.calls, cross_border = cross_border + excluded.cross_border, last_at = MAX(COALESCE(last_at, excluded.last_at), excluded.last_at)`;
    const entries = [...batch];
    for (let i = 0; i < entries.length; i++) {
      const [key, c] = entries[i]!;
      try {
        await this.dataSource.query(sql, [
          ...key.split(SEP),
          c.calls,
          c.crossBorder,
          toSqlDateTime(c.lastAt),
        ]);
      } catch (err) {
        // This key and every one after it stay pending: counted again by the next flush.
        for (const [k, rest] of entries.slice(i)) {
          const kept = this.pending.get(k) ?? { calls: 0, crossBorder: 0, lastAt: rest.lastAt };
          this.pending.set(k, {
            calls: kept.calls + rest.calls,
            crossBorder: kept.crossBorder + rest.crossBorder,
            lastAt: kept.lastAt > rest.lastAt ? kept.lastAt : rest.lastAt,
          });
        }
        throw err;
      }
    }
  }
}
