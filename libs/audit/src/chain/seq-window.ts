import { toSqlDateTime } from '@toolgate/database';
import { And, LessThanOrEqual, MoreThan, type FindOptionsWhere, type Repository } from 'typeorm';
import { AuditEventEntity } from '../entities/audit-event.entity.js';

/*
 * Reading a tenant's chain in order, a round at a time.
 *
 * Each round reads a closed window of seqs, `after < seq <= after + size`, never `seq > ? ORDER BY
 * seq LIMIT n`: MariaDB answers that form with a `ref` on the tenant over (tenant_id, seq) — the
 * seq bound only a pushed-down filter — so each round walked the tenant's index from its first
 * event, and reading a chain cost the square of its length (ADR 051: a round of 100 events at
 * seq 150,000 read 150,100 index entries). A closed window is a range on both columns, on either
 * database. Seqs are dense, so a window holds `size` events; one that holds none (events purged or
 * deleted) is skipped to the next stored seq.
 */

type Events = Repository<AuditEventEntity>;

const inWindow = (
  events: Events,
  tenantId: string,
  after: number,
  upTo: number,
  where: FindOptionsWhere<AuditEventEntity> = {},
) =>
  events.find({
    where: { ...where, tenantId, seq: And(MoreThan(String(after)), LessThanOrEqual(String(upTo))) },
    order: { seq: 'ASC' },
  });

/** The lowest stored seq of a tenant above `afterSeq` (MIN over the unique index: one lookup), or null. */
export async function nextStoredSeq(
  events: Events,
  tenantId: string,
  afterSeq: number,
): Promise<number | null> {
  const row = await events
    .createQueryBuilder('e')
    .select('MIN(e.seq)', 'seq')
    .where('e.tenantId = :tenantId AND e.seq > :afterSeq', { tenantId, afterSeq: String(afterSeq) })
    .getRawOne<{ seq: string | number | null }>();
  return row?.seq === null || row?.seq === undefined ? null : Number(row.seq);
}

/**
 * The first stored events of a tenant after `afterSeq` (and up to `toSeq`): at most `size`, oldest
 * first; none when the chain holds no more.
 */
export async function eventsAfter(
  events: Events,
  tenantId: string,
  afterSeq: number,
  size: number,
  toSeq = Number.MAX_SAFE_INTEGER,
): Promise<AuditEventEntity[]> {
  if (afterSeq >= toSeq) return [];
  const rows = await inWindow(events, tenantId, afterSeq, Math.min(afterSeq + size, toSeq));
  if (rows.length) return rows;
  const next = await nextStoredSeq(events, tenantId, afterSeq);
  if (next === null || next > toSeq) return [];
  return inWindow(events, tenantId, next - 1, Math.min(next - 1 + size, toSeq));
}

/**
 * A tenant's stored events with `afterSeq < seq <= toSeq`, oldest first, `size` seqs a round. The
 * next round is asked for while the caller works on the current one, so the database's time
 * overlaps the caller's (hashing); a caller that stops early leaves that read unawaited.
 *
 * With `where` (a time range) a window may be empty because of it: windows are then only moved on,
 * never skipped, so callers narrow `afterSeq`/`toSeq` to the range's own seqs first.
 */
export async function* seqWindows(
  events: Events,
  tenantId: string,
  afterSeq: number,
  toSeq: number,
  size: number,
  where: FindOptionsWhere<AuditEventEntity> = {},
): AsyncGenerator<AuditEventEntity[]> {
  const narrowed = Object.keys(where).length > 0;
  const read = (after: number) => {
    const upTo = Math.min(after + size, toSeq);
    const round = inWindow(events, tenantId, after, upTo, where).then((found) => ({ found, upTo }));
    round.catch(() => undefined); // awaited below, unless the caller stopped: then nobody is to hear of it
    return round;
  };
  let next = afterSeq < toSeq ? read(afterSeq) : undefined;
  while (next) {
    const { found, upTo } = await next;
    if (!found.length && !narrowed) {
      const seq = await nextStoredSeq(events, tenantId, upTo);
      next = seq !== null && seq <= toSeq ? read(seq - 1) : undefined;
      continue;
    }
    next = upTo < toSeq ? read(upTo) : undefined;
    if (found.length) yield found;
  }
}

/** The lowest and highest seq of a tenant's events in a time range (both ends inclusive), or null. */
export async function eventSeqBounds(
  events: Repository<AuditEventEntity>,
  tenantId: string,
  from?: Date | null,
  to?: Date | null,
): Promise<{ min: number; max: number } | null> {
  const q = events
    .createQueryBuilder('e')
    .select('MIN(e.seq)', 'min')
    .addSelect('MAX(e.seq)', 'max')
    .where('e.tenantId = :tenantId', { tenantId });
  if (from) q.andWhere('e.occurredAt >= :from', { from: toSqlDateTime(from) });
  if (to) q.andWhere('e.occurredAt <= :to', { to: toSqlDateTime(to) });
  const row = await q.getRawOne<{ min: string | number | null; max: string | number | null }>();
  if (row?.min === null || row?.min === undefined || row.max === null) return null;
  return { min: Number(row.min), max: Number(row.max) };
}
