import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { fromSqlDateTime, isUniqueViolation, toSqlDateTime } from '@toolgate/database';
import type { DataSource, EntityManager, QueryResult } from 'typeorm';
import { GENESIS_HASH } from '../audit-event.js';

/** A tenant's own retention row (absent: nothing set through the API, no hold). */
export interface RetentionRow {
  readonly tenantId: string;
  readonly retentionDays: number | null;
  readonly hold: boolean;
  readonly holdReason: string | null;
  readonly holdBy: string | null;
  readonly holdSince: Date | null;
}

/** How far a tenant's chain is archived. */
export interface ArchiveCursor {
  readonly seq: number;
  readonly hash: string;
  readonly files: number;
  readonly archivedAt: Date | null;
}

/** How far a tenant's chain is purged: every event up to `seq` is gone, `hash` was the last one's. */
export interface PurgeBoundary {
  readonly seq: number;
  readonly hash: string;
  readonly keyed: boolean;
  readonly windowSeq: number;
  readonly events: number;
  readonly purgedAt: Date | null;
}

const date = (v: unknown) => (v === null || v === undefined ? null : fromSqlDateTime(v));

/** The retention tables (`audit_retention`, `audit_archive_cursors`, `audit_purge_boundaries`). */
@Injectable()
export class RetentionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async rows(): Promise<RetentionRow[]> {
    const rows = (await this.dataSource.query(
      'SELECT tenant_id, retention_days, hold, hold_reason, hold_by, hold_since FROM audit_retention',
    )) as Record<string, unknown>[];
    return rows.map(toRetentionRow);
  }

  async row(tenantId: string, em: EntityManager = this.dataSource.manager): Promise<RetentionRow | null> {
    const [row] = (await em.query(
      'SELECT tenant_id, retention_days, hold, hold_reason, hold_by, hold_since FROM audit_retention WHERE tenant_id = ?',
      [tenantId],
    )) as Record<string, unknown>[];
    return row ? toRetentionRow(row) : null;
  }

  /** Writes a tenant's row whole (inside the caller's transaction, with the event that records it). */
  async save(em: EntityManager, r: RetentionRow): Promise<void> {
    const values = [
      r.retentionDays,
      r.hold ? 1 : 0,
      r.holdReason,
      r.holdBy,
      r.holdSince ? toSqlDateTime(r.holdSince) : null,
      toSqlDateTime(new Date()),
    ];
    const updated = await changed(
      em,
      'UPDATE audit_retention SET retention_days = ?, hold = ?, hold_reason = ?, hold_by = ?, hold_since = ?, updated_at = ? WHERE tenant_id = ?',
      [...values, r.tenantId],
    );
    if (updated > 0) return;
    await em.query(
      'INSERT INTO audit_retention (retention_days, hold, hold_reason, hold_by, hold_since, updated_at, tenant_id) VALUES (?,?,?,?,?,?,?)',
      [...values, r.tenantId],
    );
  }

  async archiveCursors(): Promise<Map<string, ArchiveCursor>> {
    const rows = (await this.dataSource.query(
      'SELECT tenant_id, seq, hash, files, archived_at FROM audit_archive_cursors',
    )) as Record<string, unknown>[];
    return new Map(rows.map((r) => [String(r.tenant_id), toCursor(r)]));
  }

  async archiveCursor(tenantId: string): Promise<ArchiveCursor> {
    const [row] = (await this.dataSource.query(
      'SELECT tenant_id, seq, hash, files, archived_at FROM audit_archive_cursors WHERE tenant_id = ?',
      [tenantId],
    )) as Record<string, unknown>[];
    return row ? toCursor(row) : { seq: 0, hash: GENESIS_HASH, files: 0, archivedAt: null };
  }

  /**
   * Moves a tenant's archive cursor from `from` to `to`, only if it still stands at `from`: two
   * gateways that archived the same range (identical bytes) move it once; the other learns it lost.
   */
  async moveArchiveCursor(
    em: EntityManager,
    tenantId: string,
    from: number,
    to: { seq: number; hash: string },
  ): Promise<boolean> {
    const now = toSqlDateTime(new Date());
    if (from === 0) {
      try {
        await em.query(
          'INSERT INTO audit_archive_cursors (tenant_id, seq, hash, files, archived_at) VALUES (?,?,?,1,?)',
          [tenantId, to.seq, to.hash, now],
        );
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    }
    const moved = await changed(
      em,
      'UPDATE audit_archive_cursors SET seq = ?, hash = ?, files = files + 1, archived_at = ? WHERE tenant_id = ? AND seq = ?',
      [to.seq, to.hash, now, tenantId, from],
    );
    return moved > 0;
  }

  async boundaries(): Promise<Map<string, PurgeBoundary>> {
    const rows = (await this.dataSource.query(
      'SELECT tenant_id, seq, hash, keyed, window_seq, events, purged_at FROM audit_purge_boundaries',
    )) as Record<string, unknown>[];
    return new Map(rows.map((r) => [String(r.tenant_id), toBoundary(r)]));
  }

  /** A tenant's purge boundary, read through `source` (the purge connection, or the runtime one). */
  async boundary(
    tenantId: string,
    source: DataSource | EntityManager = this.dataSource,
  ): Promise<PurgeBoundary | null> {
    const [row] = (await source.query(
      'SELECT tenant_id, seq, hash, keyed, window_seq, events, purged_at FROM audit_purge_boundaries WHERE tenant_id = ?',
      [tenantId],
    )) as Record<string, unknown>[];
    return row ? toBoundary(row) : null;
  }
}

/** Runs a write inside `em`'s transaction and answers how many rows it changed (either database). */
export async function changed(em: EntityManager, sql: string, params: readonly unknown[]): Promise<number> {
  const runner = em.queryRunner;
  if (!runner?.isTransactionActive) throw new Error('retention writes run inside a transaction');
  const result = (await runner.query(sql, [...params], true)) as QueryResult;
  return result.affected ?? 0;
}

function toRetentionRow(r: Record<string, unknown>): RetentionRow {
  return {
    tenantId: String(r.tenant_id),
    retentionDays:
      r.retention_days === null || r.retention_days === undefined ? null : Number(r.retention_days),
    hold: Number(r.hold) === 1,
    holdReason: (r.hold_reason as string | null) ?? null,
    holdBy: (r.hold_by as string | null) ?? null,
    holdSince: date(r.hold_since),
  };
}

function toCursor(r: Record<string, unknown>): ArchiveCursor {
  return {
    seq: Number(r.seq),
    hash: String(r.hash),
    files: Number(r.files),
    archivedAt: date(r.archived_at),
  };
}

function toBoundary(r: Record<string, unknown>): PurgeBoundary {
  return {
    seq: Number(r.seq),
    hash: String(r.hash),
    keyed: Number(r.keyed) === 1,
    windowSeq: Number(r.window_seq),
    events: Number(r.events),
    purgedAt: date(r.purged_at),
  };
}
