import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isMysql, runPeriodically } from '@toolgate/database';
import type { DataSource } from 'typeorm';
import { DATA_PROTECTION_OPTIONS, type DataProtectionOptions } from './data-protection.options.js';
import { ProcessingCountEntity } from './entities/processing-count.entity.js';

/** The calls counted for one (tenant, tool, recipient). */
export interface ProcessingCount {
  readonly tool: string;
  readonly recipient: string;
  readonly calls: number;
  readonly crossBorder: number;
}

const INSERT =
  'INSERT INTO processing_counts (tenant_id, tool, recipient, calls, cross_border) VALUES (?, ?, ?, ?, ?)';
const SEP = '\u0000';

/**
 * Counts calls that sent classified fields to a recipient. Counted in memory on the call's path
 * (no round trip per call) and added to the shared counters by one upsert per key every
 * `flushIntervalMs`, at shutdown and before a read; a gateway that dies loses at most that
 * interval's counts.
 */
@Injectable()
export class ProcessingCounts implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ProcessingCounts');
  private pending = new Map<string, { calls: number; crossBorder: number }>();
  private stop?: () => void;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(DATA_PROTECTION_OPTIONS) private readonly options: DataProtectionOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.flushIntervalMs > 0)
      this.stop = runPeriodically(
        this.options.flushIntervalMs,
        () => this.flush(),
        (err) => this.logger.warn(`processing counts not stored yet: ${err.message}`),
      );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stop?.();
    await this.flush().catch((err: Error) => this.logger.error(`processing counts lost: ${err.message}`));
  }

  /** One call of `tool` that sent classified fields to `recipient`. */
  count(tenantId: string, tool: string, recipient: string, crossBorder: boolean): void {
    const key = [tenantId, tool, recipient].join(SEP);
    const c = this.pending.get(key) ?? { calls: 0, crossBorder: 0 };
    c.calls++;
    if (crossBorder) c.crossBorder++;
    this.pending.set(key, c);
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
    }));
  }

  /** Adds the pending counts to the shared counters; what fails is kept for the next flush. */
  async flush(): Promise<void> {
    const batch = this.pending;
    if (!batch.size) return;
    this.pending = new Map();
    const sql = isMysql(this.dataSource)
      ? `${INSERT} ON DUPLICATE KEY UPDATE calls = calls + VALUES(calls), cross_border = cross_border + VALUES(cross_border)`
      : `${INSERT} ON CONFLICT(tenant_id, tool, recipient) DO UPDATE SET calls = calls + excluded.calls, cross_border = cross_border + excluded.cross_border`;
    const entries = [...batch];
    for (let i = 0; i < entries.length; i++) {
      const [key, c] = entries[i]!;
      try {
        await this.dataSource.query(sql, [...key.split(SEP), c.calls, c.crossBorder]);
      } catch (err) {
        // This key and every one after it stay pending: counted again by the next flush.
        for (const [k, rest] of entries.slice(i)) {
          const kept = this.pending.get(k) ?? { calls: 0, crossBorder: 0 };
          this.pending.set(k, {
            calls: kept.calls + rest.calls,
            crossBorder: kept.crossBorder + rest.crossBorder,
          });
        }
        throw err;
      }
    }
  }
}
