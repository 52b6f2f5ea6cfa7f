import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  dataSourceOptions,
  isMysql,
  parseDatabaseUrl,
  toSqlDateTime,
  TransactionRunner,
} from '@toolgate/database';
import { DataSource, type DataSourceOptions, type EntityManager } from 'typeorm';
import { AUDIT_OPTIONS, linkKeysOf, type AuditOptions } from '../audit.options.js';
import { GENESIS_HASH } from '../audit-event.js';
import { isKeyedLink, linkVersionOf } from '../chain/event-hash.js';
import { toRecord } from '../chain/event-mapping.js';
import { AuditEventEntity } from '../entities/audit-event.entity.js';
import { changed, RetentionRepository } from './retention.repository.js';
import { WorkPacer } from './work-pacer.js';

/** What purging one tenant did. */
export interface TenantPurgeRun {
  readonly events: number;
  readonly calls: number;
  /** The purge boundary after the run. */
  readonly through: number;
  readonly problem?: string;
  /** A legal hold was set while it ran: it stopped at the batch it was at. */
  readonly stoppedByHold?: boolean;
}

/** The boundary moved meanwhile: another gateway purges this tenant. */
class StalePurge extends Error {}

/**
 * Deletes archived events of a tenant's chain up to a target (the end of an archived range), in
 * small transactions from the oldest up, resting between them in proportion to their time
 * (`workShare`): each takes row locks on a range of old seqs only, far from the head where the
 * writers append, and never for long (ADR 037).
 *
 * Under the 等保 profile the trail is append-only in the database. The purge is its one exception,
 * narrow on both ends: it first records the window it may delete (`window_seq`), and the DELETE
 * guard lets a row go only at or below its tenant's window — on MySQL/MariaDB only for the purge
 * account (`DATABASE_PURGE_URL`), which is why the purge runs on a connection of its own there.
 * The boundary moves with every batch in the same transaction (compare-and-move), so two gateways
 * never purge the same batch, and verification always knows where the chain now starts.
 */
@Injectable()
export class Purger implements OnApplicationShutdown {
  private purgeSource?: Promise<DataSource>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly repo: RetentionRepository,
    @Inject(AUDIT_OPTIONS) private readonly options: AuditOptions,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    const source = await this.purgeSource?.catch(() => undefined);
    if (source?.isInitialized) await source.destroy();
  }

  /** Why purging cannot run on this deployment, or null when it can. */
  unavailable(): string | null {
    const r = this.options.retention;
    if (isMysql(this.dataSource) && r.appendOnly && !r.purgeUrl)
      return 'the compliance profile keeps the trail append-only and only the purge account may delete archived events: set DATABASE_PURGE_URL';
    return null;
  }

  /**
   * Purges a tenant's events up to `target` (the last event of an archived range, whose hash the
   * range's manifest states), then the call projection's rows of calls whose events are all gone.
   */
  async purge(
    tenantId: string,
    target: { seq: number; hash: string },
    onHold: () => Promise<boolean> = async () => false,
  ): Promise<TenantPurgeRun> {
    const reason = this.unavailable();
    const start = await this.repo.boundary(tenantId);
    if (reason) return { events: 0, calls: 0, through: start?.seq ?? 0, problem: reason };
    const batch = this.options.retention.purgeBatch;
    const pacer = this.pacer();
    let through = await this.inTransaction((em) => this.openWindow(em, tenantId, target.seq));
    let events = 0;
    try {
      while (through < target.seq) {
        if (await onHold()) return { events, calls: 0, through, stoppedByHold: true };
        const to = Math.min(through + batch, target.seq);
        const from = through;
        // Read through the runtime connection (the purge one knows no entities): an event at or
        // below an archived range's end never changes, and a purge that took it meanwhile fails
        // the boundary's compare-and-move below.
        const row = await this.dataSource
          .getRepository(AuditEventEntity)
          .findOne({ where: { tenantId, seq: String(to) } });
        if (!row) throw new Error(`event seq ${to} is not in the database: the purge stops`);
        const last = toRecord(row);
        if (to === target.seq && last.hash !== target.hash)
          throw new Error(`event seq ${to} is not the one archived (its hash differs): the purge stops`);
        events += await this.inTransaction(async (em) => {
          const deleted = await changed(
            em,
            'DELETE FROM audit_events WHERE tenant_id = ? AND seq > ? AND seq <= ?',
            [tenantId, from, to],
          );
          const moved = await changed(
            em,
            'UPDATE audit_purge_boundaries SET seq = ?, hash = ?, keyed = ?, events = events + ?, purged_at = ? WHERE tenant_id = ? AND seq = ?',
            [
              to,
              last.hash,
              isKeyedLink(linkVersionOf(linkKeysOf(this.options), last)) ? 1 : 0,
              deleted,
              toSqlDateTime(new Date()),
              tenantId,
              from,
            ],
          );
          if (moved !== 1) throw new StalePurge();
          return deleted;
        });
        through = to;
        if (through < target.seq) await pacer.rest();
      }
    } catch (err) {
      if (err instanceof StalePurge) return { events, calls: 0, through };
      return { events, calls: 0, through, problem: (err as Error).message };
    }
    const calls = await this.purgeProjection(tenantId, through, pacer);
    return { events, calls, through };
  }

  private pacer(): WorkPacer {
    const r = this.options.retention;
    return new WorkPacer(r.workShare, r.purgePauseMs);
  }

  /** Creates the boundary row if needed and widens its window to `target`; answers the boundary's seq. */
  private async openWindow(em: EntityManager, tenantId: string, target: number): Promise<number> {
    const b = await this.repo.boundary(tenantId, em);
    if (!b) {
      await em.query(
        'INSERT INTO audit_purge_boundaries (tenant_id, seq, hash, keyed, window_seq, events, purged_at) VALUES (?,0,?,0,?,0,NULL)',
        [tenantId, GENESIS_HASH, target],
      );
      return 0;
    }
    if (b.windowSeq < target)
      await em.query('UPDATE audit_purge_boundaries SET window_seq = ? WHERE tenant_id = ?', [
        target,
        tenantId,
      ]);
    return b.seq;
  }

  /** The projection's rows of calls whose every event is purged, in batches. */
  private async purgeProjection(tenantId: string, through: number, pacer: WorkPacer): Promise<number> {
    let calls = 0;
    for (;;) {
      await pacer.rest();
      const n = await this.inTransaction(async (em) => {
        const ids = (
          (await em.query('SELECT call_id FROM audit_calls WHERE tenant_id = ? AND last_seq <= ? LIMIT ?', [
            tenantId,
            through,
            this.options.retention.purgeBatch,
          ])) as { call_id: string }[]
        ).map((r) => r.call_id);
        if (!ids.length) return 0;
        const marks = ids.map(() => '?').join(',');
        await em.query(`DELETE FROM audit_call_terms WHERE tenant_id = ? AND call_id IN (${marks})`, [
          tenantId,
          ...ids,
        ]);
        await em.query(`DELETE FROM audit_calls WHERE tenant_id = ? AND call_id IN (${marks})`, [
          tenantId,
          ...ids,
        ]);
        return ids.length;
      });
      calls += n;
      if (n < this.options.retention.purgeBatch) return calls;
    }
  }

  /** A transaction on the purge connection (MySQL with DATABASE_PURGE_URL) or the runtime one. */
  private async inTransaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const url = this.options.retention.purgeUrl;
    if (!url || !isMysql(this.dataSource)) return this.transactions.run(work);
    this.purgeSource ??= new DataSource({
      ...dataSourceOptions(parseDatabaseUrl(url), { poolSize: 2 }),
    } as DataSourceOptions)
      .initialize()
      .catch((err: Error) => {
        this.purgeSource = undefined;
        throw err;
      });
    return (await this.purgeSource).transaction('READ COMMITTED', work);
  }
}
