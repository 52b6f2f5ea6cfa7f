import { isMysql, toSqlDateTime } from '@toolgate/database';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository, SelectQueryBuilder } from 'typeorm';
import type { AuditEventRecord } from '../audit-fields.js';
import { toRecord } from '../chain/event-mapping.js';
import { eventSeqBounds, eventsAfter, seqWindows } from '../chain/seq-window.js';
import { AuditEventEntity } from '../entities/audit-event.entity.js';
import { AuditOpenCallEntity } from '../entities/audit-open-call.entity.js';
import type { AuditFilter } from './audit-query.js';

/** One cell of `durationHistogram`: finished calls of a tenant's tool in one time bucket and duration class. */
export interface DurationHistogramRow {
  /** Start of the time bucket. */
  readonly start: Date;
  readonly tenantId: string;
  /** The tool's name; '' for an event without one. */
  readonly tool: string;
  /** Index into the bounds the histogram was asked for; `bounds.length` for the open-ended class. */
  readonly durationClass: number;
  readonly calls: number;
  /** Calls whose status is not `ok`. */
  readonly errors: number;
  /** Shortest and longest duration seen in this cell, which narrow the class for interpolation. */
  readonly minMs: number;
  readonly maxMs: number;
}

const DURATION_SQL = 'COALESCE(e.duration_ms, 0)';

// The helpers below write numbers into the SQL text (grouping needs literals, not parameters), so
// only integers get through.

/** The index of a row's time bucket, counted in `bucketSeconds` since the epoch. */
function timeBucketSql(mysql: boolean, bucketSeconds: number): string {
  if (!Number.isSafeInteger(bucketSeconds) || bucketSeconds < 1)
    throw new RangeError(`bucketSeconds must be a positive integer, got ${bucketSeconds}`);
  // occurred_at holds UTC (DATETIME(3) on MariaDB, 'YYYY-MM-DD HH:MM:SS.sss' text on SQLite).
  // Seconds since the epoch come from that value itself: UNIX_TIMESTAMP() would read it in the
  // session's time zone; TIMESTAMPDIFF and SQLite's strftime('%s') take it as it is.
  return mysql
    ? `TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', e.occurred_at) DIV ${bucketSeconds}`
    : `CAST(strftime('%s', e.occurred_at) AS INTEGER) / ${bucketSeconds}`;
}

/** The index of a row's duration class: the first bound it does not exceed, else `bounds.length`. */
function durationClassSql(boundsMs: readonly number[]): string {
  if (
    !boundsMs.length ||
    !boundsMs.every((b, i) => Number.isSafeInteger(b) && (i === 0 || b > boundsMs[i - 1]!))
  )
    throw new RangeError('durationBoundsMs must be one or more ascending integers');
  const cases = boundsMs.map((bound, i) => `WHEN ${DURATION_SQL} <= ${bound} THEN ${i}`).join(' ');
  return `CASE ${cases} ELSE ${boundsMs.length} END`;
}

/** Read access to the trail: filtered keyset pages, single events, a call's story, open calls. */
@Injectable()
export class AuditEventsRepository {
  constructor(
    @InjectRepository(AuditEventEntity) private readonly events: Repository<AuditEventEntity>,
    @InjectRepository(AuditOpenCallEntity) private readonly open: Repository<AuditOpenCallEntity>,
  ) {}

  /** `filter` is already confined to the reader's scope (see AuditQueries). */
  private filtered(filter: AuditFilter): SelectQueryBuilder<AuditEventEntity> {
    const q = this.events.createQueryBuilder('e');
    if (filter.tenantId) q.andWhere('e.tenantId = :tenantId', { tenantId: filter.tenantId });
    if (filter.tool) q.andWhere('e.tool = :tool', { tool: filter.tool });
    if (filter.riskLevel) q.andWhere('e.riskLevel = :riskLevel', { riskLevel: filter.riskLevel });
    if (filter.actorId) q.andWhere('e.actorId = :actorId', { actorId: filter.actorId });
    if (filter.status) q.andWhere('e.status = :status', { status: filter.status });
    if (filter.code) q.andWhere('e.code = :code', { code: filter.code });
    if (filter.event) q.andWhere('e.event = :event', { event: filter.event });
    if (filter.callId) q.andWhere('e.callId = :callId', { callId: filter.callId });
    if (filter.from) q.andWhere('e.occurredAt >= :from', { from: toSqlDateTime(new Date(filter.from)) });
    if (filter.to) q.andWhere('e.occurredAt <= :to', { to: toSqlDateTime(new Date(filter.to)) });
    return q;
  }

  /** One page, newest first, after the row `beforeId` (exclusive). */
  async page(filter: AuditFilter, limit: number, beforeId?: string): Promise<AuditEventRecord[]> {
    const q = this.filtered(filter);
    if (beforeId) q.andWhere('e.id < :beforeId', { beforeId });
    const rows = await q.orderBy('e.id', 'DESC').take(limit).getMany();
    return rows.map(toRecord);
  }

  /**
   * All matching rows, oldest first, in chunks: constant memory for exports of any size, and
   * bounded work per query. Each query looks at one window of `window` event ids, never "the next
   * `n` matches": with a filter that matches few events, that would scan the whole table in one
   * query, and on SQLite (a synchronous driver) hold the event loop for all of it. The export is
   * the trail as it was when it started (ids up to the newest one then).
   */
  async *scan(filter: AuditFilter, window = 200): AsyncGenerator<AuditEventRecord[]> {
    const bounds = await this.events
      .createQueryBuilder('e')
      .select('MIN(e.id)', 'min')
      .addSelect('MAX(e.id)', 'max')
      .getRawOne<{ min: string | number | null; max: string | number | null }>();
    if (bounds?.min === null || bounds?.min === undefined || bounds.max === null) return;
    const last = BigInt(bounds.max);
    for (let from = BigInt(bounds.min) - 1n; from < last; from += BigInt(window)) {
      const rows = await this.filtered(filter)
        .andWhere('e.id > :from AND e.id <= :to', {
          from: String(from),
          to: String(from + BigInt(window)),
        })
        .orderBy('e.id', 'ASC')
        .getMany();
      if (rows.length) yield rows.map(toRecord);
    }
  }

  /** The lowest and highest seq of a tenant's events in a time range (both ends inclusive), or null. */
  seqBounds(tenantId: string, from?: Date, to?: Date): Promise<{ min: number; max: number } | null> {
    return eventSeqBounds(this.events, tenantId, from, to);
  }

  /** A tenant's events with `afterSeq < seq <= toSeq`, oldest first, in chunks (windows of seqs: seqWindows). */
  async *bySeq(
    tenantId: string,
    afterSeq: number,
    toSeq: number,
    chunk = 500,
  ): AsyncGenerator<AuditEventRecord[]> {
    for await (const rows of seqWindows(this.events, tenantId, afterSeq, toSeq, chunk))
      yield rows.map(toRecord);
  }

  /** The first `limit` events of a tenant with `afterSeq < seq <= toSeq`, oldest first (none: caught up). */
  async after(tenantId: string, afterSeq: number, toSeq: number, limit: number): Promise<AuditEventRecord[]> {
    return (await eventsAfter(this.events, tenantId, afterSeq, limit, toSeq)).map(toRecord);
  }

  async byId(id: string): Promise<AuditEventRecord | null> {
    if (!/^\d{1,20}$/.test(id)) return null;
    const row = await this.events.findOne({ where: { id } });
    return row ? toRecord(row) : null;
  }

  async byCall(callId: string): Promise<AuditEventRecord[]> {
    const rows = await this.events.find({ where: { callId }, order: { id: 'ASC' } });
    return rows.map(toRecord);
  }

  /**
   * Finished calls in `[from, to]` counted per time bucket, tenant, tool and duration class, in
   * SQL: however many events the window holds, the answer is a few rows per bucket and every event
   * is counted (a row cap would silently drop the newest buckets).
   *
   * @param bucketSeconds width of a time bucket; buckets start at multiples of it since the epoch.
   * @param durationBoundsMs ascending upper bounds (inclusive) of the duration classes; a class
   *   past the last bound catches the rest, so `durationClass` runs from 0 to `length`.
   * @example durationHistogram(null, from, to, 300, [5, 10, 25]) // classes ≤5, ≤10, ≤25, >25 ms
   */
  async durationHistogram(
    tenantScope: string | null,
    from: Date,
    to: Date,
    bucketSeconds: number,
    durationBoundsMs: readonly number[],
  ): Promise<DurationHistogramRow[]> {
    const bucket = timeBucketSql(isMysql(this.events.manager), bucketSeconds);
    const durationClass = durationClassSql(durationBoundsMs);
    const params: unknown[] = [toSqlDateTime(from), toSqlDateTime(to)];
    if (tenantScope) params.push(tenantScope);
    const rows: Record<string, unknown>[] = await this.events.manager.query(
      // Aliases differ from column names: MySQL's GROUP BY prefers a column over a same-named alias.
      `SELECT ${bucket} AS bucket_index, e.tenant_id AS tenant, COALESCE(e.tool, '') AS tool_name,
              ${durationClass} AS duration_class, COUNT(*) AS calls,
              SUM(CASE WHEN e.status = 'ok' THEN 0 ELSE 1 END) AS errors,
              MIN(${DURATION_SQL}) AS min_ms, MAX(${DURATION_SQL}) AS max_ms
         FROM audit_events e
        WHERE e.event = 'finished' AND e.occurred_at >= ? AND e.occurred_at <= ?
              ${tenantScope ? 'AND e.tenant_id = ?' : ''}
        GROUP BY bucket_index, tenant, tool_name, duration_class`,
      params,
    );
    return rows.map((r) => ({
      start: new Date(Number(r.bucket_index) * bucketSeconds * 1000),
      tenantId: String(r.tenant),
      tool: String(r.tool_name),
      durationClass: Number(r.duration_class),
      calls: Number(r.calls),
      errors: Number(r.errors),
      minMs: Number(r.min_ms),
      maxMs: Number(r.max_ms),
    }));
  }

  async countOpenCalls(tenantScope: string | null): Promise<number> {
    return this.open.count({ where: tenantScope ? { tenantId: tenantScope } : {} });
  }

  /** Calls with a `started` event and no closing event yet. */
  async openCalls(tenantScope: string | null): Promise<AuditOpenCallEntity[]> {
    return this.open.find({
      where: tenantScope ? { tenantId: tenantScope } : {},
      order: { startedAt: 'ASC' },
      take: 1000,
    });
  }

  /** Open calls of the given gateway instances (dead ones, for the reconciler). */
  openCallsOf(instanceIds: readonly string[]): Promise<AuditOpenCallEntity[]> {
    if (!instanceIds.length) return Promise.resolve([]);
    return this.open
      .createQueryBuilder('o')
      .where('o.instanceId IN (:...ids)', { ids: instanceIds })
      .getMany();
  }
}
