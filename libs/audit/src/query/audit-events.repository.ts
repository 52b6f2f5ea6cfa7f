import { fromSqlDateTime, toSqlDateTime } from '@toolgate/database';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository, SelectQueryBuilder } from 'typeorm';
import type { AuditEventRecord } from '../audit-event.js';
import { toRecord } from '../chain/event-mapping.js';
import { AuditEventEntity } from '../entities/audit-event.entity.js';
import { AuditOpenCallEntity } from '../entities/audit-open-call.entity.js';
import type { AuditFilter } from './audit-query.js';

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

  /** All matching rows, oldest first, in chunks: constant memory for exports of any size. */
  async *scan(filter: AuditFilter, chunk = 1000): AsyncGenerator<AuditEventRecord[]> {
    let afterId = '0';
    for (;;) {
      const rows = await this.filtered(filter)
        .andWhere('e.id > :afterId', { afterId })
        .orderBy('e.id', 'ASC')
        .take(chunk)
        .getMany();
      if (!rows.length) return;
      yield rows.map(toRecord);
      afterId = String(rows.at(-1)!.id);
    }
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

  /** Outcomes of calls in a time range (for the overview's charts), oldest first, at most `limit`. */
  async outcomesBetween(tenantScope: string | null, from: Date, to: Date, limit = 100_000) {
    const q = this.events
      .createQueryBuilder('e')
      .select(['e.tenantId', 'e.tool', 'e.status', 'e.durationMs', 'e.occurredAt'])
      .where('e.event = :event', { event: 'finished' })
      .andWhere('e.occurredAt >= :from', { from: toSqlDateTime(from) })
      .andWhere('e.occurredAt <= :to', { to: toSqlDateTime(to) });
    if (tenantScope) q.andWhere('e.tenantId = :tenantId', { tenantId: tenantScope });
    const rows = await q.orderBy('e.id', 'ASC').take(limit).getMany();
    return rows.map((r) => ({
      tenantId: r.tenantId,
      tool: r.tool ?? '',
      ok: r.status === 'ok',
      durationMs: Number(r.durationMs ?? 0),
      at: fromSqlDateTime(r.occurredAt),
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
