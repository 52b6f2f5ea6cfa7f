import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RunEvent, RunEventType } from '@toolgate/contract';
import { isUniqueViolation, sealJson, toSqlDateTime, type WriteStatement } from '@toolgate/database';
import { MoreThan, type DataSource } from 'typeorm';
import { RunEventEntity } from '../entities/run-event.entity.js';
import type { RunRef } from '../store/run.repository.js';
import { GroupedInsert } from './grouped-insert.js';

/** The wire form of a stored event: the SSE id is the per-run sequence number. */
export function toRunEvent(e: RunEventEntity): RunEvent {
  return { id: String(e.seq), runId: e.runId, type: e.type, at: e.at.toISOString(), data: e.data };
}

/** Event rows as one INSERT (plain SQL: TypeORM would build the statement per row). */
function insertEvents(rows: readonly RunEventEntity[]): WriteStatement {
  return {
    sql: `INSERT INTO run_events (tenant_id, run_id, seq, type, data, at) VALUES ${rows.map(() => '(?,?,?,?,?,?)').join(',')}`,
    params: rows.flatMap((e) => [
      e.tenantId,
      e.runId,
      e.seq,
      e.type,
      JSON.stringify(sealJson(e.data)),
      toSqlDateTime(e.at),
    ]),
  };
}

/**
 * How long a drive's first unwritten event waits for the next ones before they are written
 * together; streams on this gateway see an event at most this much later.
 */
const LINGER_MS = 10;

/** Tries of a drive's batch of events before it is given up (20, 40 ms apart). */
const WRITE_ATTEMPTS = 3;

interface QueuedEvent {
  readonly type: RunEventType;
  readonly data: Record<string, unknown>;
  readonly at: Date;
}

/** The events of one drive of a run (RunEvents.queue). */
export interface RunEventQueue {
  emit(type: RunEventType, data: Record<string, unknown>): void;
  /** Resolves once every event emitted so far is written (or dropped). */
  flushed(): Promise<void>;
}

/**
 * The events of runs: stored in `run_events` with a per-run sequence (what `Last-Event-ID` replays
 * after), and announced in-process so that streams on this gateway wake at once. Streams on other
 * gateways read the table (the floor); the table is the one source, the announcement only a nudge.
 */
@Injectable()
export class RunEvents {
  private readonly logger = new Logger(RunEvents.name);
  /** The next sequence number per run this gateway writes to (the driving gateway writes nearly all). */
  private readonly next = new Map<string, number>();
  private readonly waiters = new Map<string, Set<() => void>>();

  /** Events of all runs this gateway drives, inserted together (one statement and commit per group). */
  private readonly rows = new GroupedInsert<RunEventEntity>((rows) => {
    const { sql, params } = insertEvents(rows);
    return this.dataSource.query(sql, [...params]);
  });

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(RunEventEntity);
  }

  async emit(ref: RunRef, type: RunEventType, data: Record<string, unknown>): Promise<void> {
    await this.write(ref, [{ type, data, at: new Date() }]);
  }

  /**
   * A drive's events, stored in the order emitted without the drive waiting for them: what is
   * emitted within LINGER_MS of the first unwritten event, or while a write is under way, goes
   * into the next write, all in one statement (one commit instead of one per event: a step emits
   * five or more, and every statement costs the gateway a round trip's CPU). `flushed` writes at
   * once. A write that fails is tried again (writeHard); what a crash can lose: ADR 050.
   */
  queue(ref: RunRef): RunEventQueue {
    let pending: QueuedEvent[] = [];
    let writing: Promise<void> | null = null;
    /** Ends the current linger early (`flushed`). */
    let now: (() => void) | null = null;
    const linger = () =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          now = null;
          resolve();
        };
        const timer = setTimeout(done, LINGER_MS);
        now = done;
      });
    const drain = async () => {
      await linger();
      while (pending.length) {
        const batch = pending;
        pending = [];
        await this.writeHard(ref, batch);
      }
      writing = null;
    };
    return {
      emit: (type, data) => {
        pending.push({ type, data, at: new Date() });
        writing ??= drain();
      },
      flushed: async () => {
        while (writing) {
          now?.();
          await writing;
        }
      },
    };
  }

  /**
   * A drive's batch, tried again after a failure (a dropped connection, a busy database) a few
   * times before it is given up: the batches after it wait, so a stream never sees them out of
   * order (ADR 050). Given up, the numbering goes on where it stood: a gap in what the events
   * tell, never in their ids; the run's own rows are the record.
   */
  private async writeHard(ref: RunRef, batch: readonly QueuedEvent[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.write(ref, batch);
      } catch (err) {
        if (attempt >= WRITE_ATTEMPTS) {
          this.logger.warn(`events of run ${ref.runId} not stored: ${(err as Error).message}`);
          return;
        }
        await new Promise((r) => setTimeout(r, 20 * attempt));
      }
    }
  }

  private async write(ref: RunRef, batch: readonly QueuedEvent[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const seq = this.next.get(ref.runId) ?? (await this.lastSeq(ref)) + 1;
      try {
        await this.rows.add(
          batch.map((e, i) => ({ ...ref, seq: seq + i, type: e.type, data: e.data, at: e.at })),
        );
        this.next.set(ref.runId, seq + batch.length);
        break;
      } catch (err) {
        // Another gateway (a cancel, a takeover) wrote this number first: continue after it. (In a
        // group with other runs' events, all of them land here and retry, each after its own last.)
        if (!isUniqueViolation(err) || attempt >= 5) throw err;
        this.next.delete(ref.runId);
      }
    }
    if (batch.some((e) => e.type === 'run_finished')) this.next.delete(ref.runId);
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

  /** The first event of a run being created, number 1: stored in the run's own insert (RunRepository.insert). */
  first(ref: RunRef, type: RunEventType, data: Record<string, unknown>): WriteStatement {
    return insertEvents([{ ...ref, seq: 1, type, data, at: new Date() }]);
  }

  /** A run just created with its first event: its next is number 2, without asking the database. */
  begin(runId: string): void {
    this.next.set(runId, 2);
    for (const wake of this.waiters.get(runId) ?? []) wake();
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
