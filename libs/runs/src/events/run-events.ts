import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RunEvent, RunEventType } from '@toolgate/contract';
import { isUniqueViolation } from '@toolgate/database';
import { MoreThan, type DataSource } from 'typeorm';
import { RunEventEntity } from '../entities/run-event.entity.js';
import type { RunRef } from '../store/run.repository.js';

/** The wire form of a stored event: the SSE id is the per-run sequence number. */
export function toRunEvent(e: RunEventEntity): RunEvent {
  return { id: String(e.seq), runId: e.runId, type: e.type, at: e.at.toISOString(), data: e.data };
}

/**
 * The events of runs: stored in `run_events` with a per-run sequence (what `Last-Event-ID` replays
 * after), and announced in-process so that streams on this gateway wake at once. Streams on other
 * gateways read the table (the floor); the table is the one source, the announcement only a nudge.
 */
@Injectable()
export class RunEvents {
  /** The next sequence number per run this gateway writes to (the driving gateway writes nearly all). */
  private readonly next = new Map<string, number>();
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(RunEventEntity);
  }

  async emit(ref: RunRef, type: RunEventType, data: Record<string, unknown>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const seq = this.next.get(ref.runId) ?? (await this.lastSeq(ref)) + 1;
      try {
        await this.repo.insert({ ...ref, seq, type, data: data as never, at: new Date() });
        this.next.set(ref.runId, seq + 1);
        break;
      } catch (err) {
        // Another gateway (a cancel, a takeover) wrote this number first: continue after it.
        if (!isUniqueViolation(err) || attempt >= 5) throw err;
        this.next.delete(ref.runId);
      }
    }
    if (type === 'run_finished') this.next.delete(ref.runId);
    for (const wake of this.waiters.get(ref.runId) ?? []) wake();
  }

  /** Stored events of a run after `seq`, in order. */
  async after(ref: RunRef, seq: number, limit = 500): Promise<RunEventEntity[]> {
    return this.repo.find({
      where: { tenantId: ref.tenantId, runId: ref.runId, seq: MoreThan(seq) },
      order: { seq: 'ASC' },
      take: limit,
    });
  }

  /** Resolves when this gateway writes an event of the run, or after `ms` (the poll floor). */
  wait(runId: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const set = this.waiters.get(runId) ?? new Set<() => void>();
      this.waiters.set(runId, set);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        set.delete(done);
        if (!set.size) this.waiters.delete(runId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done);
      set.add(done);
    });
  }

  /** Forgets the sequence of a run this gateway no longer drives (another may write next). */
  release(runId: string): void {
    this.next.delete(runId);
  }

  private async lastSeq(ref: RunRef): Promise<number> {
    const row = await this.repo
      .createQueryBuilder('e')
      .select('MAX(e.seq)', 'max')
      .where('e.tenant_id = :tenantId AND e.run_id = :runId', ref)
      .getRawOne<{ max: number | string | null }>();
    return Number(row?.max ?? 0);
  }
}
