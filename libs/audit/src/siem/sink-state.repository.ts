import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { fromSqlDateTime, isMysql, toSqlDateTime, TransactionRunner } from '@toolgate/database';
import type { DataSource } from 'typeorm';

/** A tenant whose chain is ahead of what a sink delivered. */
export interface SinkBehind {
  readonly tenantId: string;
  /** The seq delivered so far (0: none). */
  readonly sent: number;
  readonly head: number;
}

/** An event a receiver refused for good: where it is in the chain, and why. */
export interface DeadLetter {
  readonly tenantId: string;
  readonly seq: number;
  readonly event: string;
  readonly hash: string;
  readonly reason: string;
  readonly attempts: number;
  readonly failedAt: Date;
}

/** A sink's state as the database has it, for every gateway to report. */
export interface StoredSinkState {
  readonly lag: number;
  readonly deadLetters: number;
  readonly holder: string | null;
  readonly leaseExpiresAt: Date | null;
}

/**
 * The only way to the forwarder's tables (`audit_sink_cursors`, `audit_sink_leases`,
 * `audit_sink_dead_letters`) and its read of the chain heads.
 */
@Injectable()
export class SinkStateRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  /** The lowest seq of `tenantId` every one of `sinks` has delivered (0: one has delivered none). */
  async deliveredThrough(sinks: readonly string[], tenantId: string): Promise<number> {
    if (!sinks.length) return Number.MAX_SAFE_INTEGER;
    const rows = (await this.dataSource.query(
      `SELECT sink, seq FROM audit_sink_cursors WHERE tenant_id = ? AND sink IN (${sinks.map(() => '?').join(', ')})`,
      [tenantId, ...sinks],
    )) as { sink: string; seq: string | number }[];
    if (rows.length < sinks.length) return 0;
    return Math.min(...rows.map((r) => Number(r.seq)));
  }

  /** Tenants whose chain head is past the sink's cursor (or that it has no cursor for yet). */
  async behind(sink: string): Promise<SinkBehind[]> {
    const rows = (await this.dataSource.query(
      `SELECT h.tenant_id AS tenant_id, h.seq AS head, COALESCE(c.seq, 0) AS sent
         FROM audit_chain_heads h LEFT JOIN audit_sink_cursors c ON c.tenant_id = h.tenant_id AND c.sink = ?
        WHERE c.seq IS NULL OR c.seq < h.seq ORDER BY h.tenant_id`,
      [sink],
    )) as { tenant_id: string; head: string | number; sent: string | number }[];
    return rows.map((r) => ({ tenantId: r.tenant_id, sent: Number(r.sent), head: Number(r.head) }));
  }

  /**
   * Moves a sink's cursor of a tenant from `fromSeq` to `toSeq`, only if it is still at `fromSeq`
   * (another gateway that forwarded meanwhile wins; answers false, nothing written), and records
   * `dead` in the same transaction.
   */
  async advance(
    sink: string,
    tenantId: string,
    fromSeq: number,
    toSeq: number,
    dead: readonly DeadLetter[] = [],
  ): Promise<boolean> {
    const now = toSqlDateTime(new Date());
    const ignore = isMysql(this.dataSource) ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
    const [, moved] = await this.transactions.writeAll([
      {
        sql: `${ignore} INTO audit_sink_cursors (sink, tenant_id, seq, updated_at) VALUES (?, ?, 0, ?)`,
        params: [sink, tenantId, now],
      },
      {
        sql: 'UPDATE audit_sink_cursors SET seq = ?, updated_at = ? WHERE sink = ? AND tenant_id = ? AND seq = ?',
        params: [toSeq, now, sink, tenantId, fromSeq],
      },
      ...dead.map((d) => ({
        sql: `${ignore} INTO audit_sink_dead_letters (sink, tenant_id, seq, event, hash, reason, attempts, failed_at) VALUES (?,?,?,?,?,?,?,?)`,
        params: [
          sink,
          d.tenantId,
          d.seq,
          d.event.slice(0, 64),
          d.hash,
          d.reason.slice(0, 300),
          d.attempts,
          toSqlDateTime(d.failedAt),
        ],
      })),
    ]);
    if (moved === 1) return true;
    // The cursor moved on meanwhile: what was written with it must not stay.
    if (dead.length)
      await this.dropDeadLetters(
        sink,
        tenantId,
        dead.map((d) => d.seq),
      );
    return false;
  }

  private async dropDeadLetters(sink: string, tenantId: string, seqs: readonly number[]): Promise<void> {
    await this.transactions.writeAll([
      {
        sql: `DELETE FROM audit_sink_dead_letters WHERE sink = ? AND tenant_id = ? AND seq IN (${seqs.map(() => '?').join(',')})`,
        params: [sink, tenantId, ...seqs],
      },
    ]);
  }

  /**
   * Takes or renews the sink's lease for `holder` until now + `leaseMs`: answers whether it holds
   * it. A lease held by another gateway is taken only once it has expired.
   */
  async lease(sink: string, holder: string, leaseMs: number): Promise<boolean> {
    const now = new Date();
    const until = toSqlDateTime(new Date(now.getTime() + leaseMs));
    const ignore = isMysql(this.dataSource) ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
    const [created, taken] = await this.transactions.writeAll([
      {
        sql: `${ignore} INTO audit_sink_leases (sink, holder, expires_at) VALUES (?, ?, ?)`,
        params: [sink, holder, until],
      },
      {
        sql: 'UPDATE audit_sink_leases SET holder = ?, expires_at = ? WHERE sink = ? AND (holder = ? OR expires_at < ?)',
        params: [holder, until, sink, holder, toSqlDateTime(now)],
      },
    ]);
    return created === 1 || taken === 1;
  }

  /** Gives the lease up (at shutdown), so another gateway takes over at its next look. */
  async release(sink: string, holder: string): Promise<void> {
    await this.transactions.writeAll([
      {
        sql: 'UPDATE audit_sink_leases SET expires_at = ? WHERE sink = ? AND holder = ?',
        params: [toSqlDateTime(new Date(0)), sink, holder],
      },
    ]);
  }

  /** Lag (events committed, not yet delivered, all tenants), dead letters and lease of a sink. */
  async state(sink: string): Promise<StoredSinkState> {
    const [lag] = (await this.dataSource.query(
      `SELECT COALESCE(SUM(h.seq - COALESCE(c.seq, 0)), 0) AS lag
         FROM audit_chain_heads h LEFT JOIN audit_sink_cursors c ON c.tenant_id = h.tenant_id AND c.sink = ?`,
      [sink],
    )) as { lag: string | number }[];
    const [dead] = (await this.dataSource.query(
      'SELECT COUNT(*) AS n FROM audit_sink_dead_letters WHERE sink = ?',
      [sink],
    )) as { n: string | number }[];
    const [lease] = (await this.dataSource.query(
      'SELECT holder, expires_at FROM audit_sink_leases WHERE sink = ?',
      [sink],
    )) as { holder: string; expires_at: string | Date }[];
    return {
      lag: Number(lag?.lag ?? 0),
      deadLetters: Number(dead?.n ?? 0),
      holder: lease?.holder ?? null,
      leaseExpiresAt: lease ? fromSqlDateTime(lease.expires_at) : null,
    };
  }

  /** A sink's dead letters, newest first (tenant-scoped when `tenantId` is given). */
  async deadLetters(sink: string, limit: number, tenantId?: string): Promise<DeadLetter[]> {
    const rows = (await this.dataSource.query(
      `SELECT tenant_id, seq, event, hash, reason, attempts, failed_at FROM audit_sink_dead_letters
        WHERE sink = ?${tenantId ? ' AND tenant_id = ?' : ''} ORDER BY id DESC LIMIT ${Math.trunc(limit)}`,
      tenantId ? [sink, tenantId] : [sink],
    )) as Record<string, unknown>[];
    return rows.map((r) => ({
      tenantId: String(r.tenant_id),
      seq: Number(r.seq),
      event: String(r.event),
      hash: String(r.hash),
      reason: String(r.reason),
      attempts: Number(r.attempts),
      failedAt: fromSqlDateTime(r.failed_at as string | Date),
    }));
  }
}
