import { Inject, Injectable, Logger, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { isRetryableTransactionError, StatementRefusedError, wellFormed } from '@toolgate/database';
import { inSpan, SpanName, TraceAttr, tracingEnabled } from '@toolgate/telemetry';
import type { EntityManager } from 'typeorm';
import { AuditAlarms } from '../alarms/audit-alarms.js';
import { AUDIT_OPTIONS, type AuditOptions } from '../audit.options.js';
import { CLOSING_EVENTS } from '../audit-event.js';
import type { AuditEventDraft } from '../audit-fields.js';
import {
  AuditChainRepository,
  closedKey,
  startedKey,
  tenantDedupeKey,
  type ChainEntry,
  type EntryOutcome,
  type Sidecar,
} from './audit-chain.repository.js';

/** Tries of one batch on errors that roll it back whole (deadlock, Galera certification conflict). */
const APPEND_ATTEMPTS = 8;

/** The audit store did not confirm a write in time, or refused it. */
export class AuditUnavailableError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`audit store unavailable: ${reason}`, options);
    this.name = 'AuditUnavailableError';
  }
}

interface Lane {
  queue: Group[];
  scheduled: boolean;
  inFlight: number;
}

function laneOf(tenantId: string, lanes: number): number {
  let h = 0;
  for (let i = 0; i < tenantId.length; i++) h = (h * 31 + tenantId.charCodeAt(i)) | 0;
  return Math.abs(h) % lanes;
}

interface Group {
  readonly entries: ChainEntry[];
  resolve(outcomes: EntryOutcome[]): void;
  reject(err: unknown): void;
}

/** The idempotency key of a call event, scoped to its tenant (see AuditChainRepository). */
export function dedupeKeyOf(draft: AuditEventDraft, extra?: string): string | null {
  const { tenantId, callId } = draft;
  if (!callId) return null;
  if (draft.event === 'started') return startedKey(tenantId, callId);
  if (CLOSING_EVENTS.has(draft.event)) return closedKey(tenantId, callId);
  if (draft.event === 'late_completion') return tenantDedupeKey(tenantId, `${callId}:late`);
  return extra ? tenantDedupeKey(tenantId, `${callId}:${draft.event}:${extra}`) : null;
}

/** Options of an append. */
export interface AppendOptions {
  /** Part of the dedupe key of non-call-lifecycle events (e.g. an approval id). */
  readonly dedupeExtra?: string;
  /** Rows written with the last event of the append, in its transaction (see Sidecar). */
  readonly sidecar?: Sidecar;
}

/**
 * The draft with its JSON fields well-formed (a lone surrogate from a tool's answer as U+FFFD),
 * before it is hashed: what the link covers is what the JSON columns can hold, and one tenant's
 * odd answer cannot fail a batch that carries other tenants' events.
 */
function wellFormedDraft(d: AuditEventDraft): AuditEventDraft {
  const input = wellFormed(d.input);
  const outputSummary = wellFormed(d.outputSummary);
  const details = wellFormed(d.details);
  return input === d.input && outputSummary === d.outputSummary && details === d.details
    ? d
    : { ...d, input, outputSummary, details };
}

export function toEntries(drafts: readonly AuditEventDraft[], options: AppendOptions = {}): ChainEntry[] {
  return drafts.map((d, i) => ({
    draft: wellFormedDraft(d),
    dedupeKey: dedupeKeyOf(d, options.dedupeExtra),
    opens: d.event === 'started',
    closes: CLOSING_EVENTS.has(d.event),
    ...(options.sidecar && i === drafts.length - 1 ? { sidecar: options.sidecar } : {}),
  }));
}

/**
 * Group commit for the audit trail: events that arrive while a batch is being written wait and go
 * together in the next transaction; each caller awaits the durability of its own events. Batching
 * is what makes audit cheap — one transaction per event tops out at a few thousand events/s.
 *
 * Writes that must not be lost (a `finished` after the tool ran, a `not_executed` after a refused
 * start) are retried in the background until the store takes them; dedupe keys make the retries
 * safe even when a failed write had in fact committed.
 */
@Injectable()
export class AuditWriter implements OnApplicationShutdown {
  private readonly logger = new Logger(AuditWriter.name);
  /**
   * Independent write lanes (`writerLanes`), one tenant's chain always in the same lane: while one
   * lane waits on the database, another prepares or commits its batch. On MySQL they run on
   * separate pooled connections; on SQLite the transaction runner serializes them anyway.
   */
  private readonly lanes: Lane[];
  private readonly retrying = new Set<ChainEntry[]>();
  private retryTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly chain: AuditChainRepository,
    @Inject(AUDIT_OPTIONS) private readonly options: AuditOptions,
    // Optional: specs build a writer without one. The gateway always has it (ADR 039).
    @Optional() private readonly alarms?: AuditAlarms,
  ) {
    this.lanes = Array.from({ length: options.writerLanes }, (): Lane => ({
      queue: [],
      scheduled: false,
      inFlight: 0,
    }));
  }

  /**
   * Appends events atomically (all in one transaction) and resolves once they are durable, or
   * rejects with AuditUnavailableError after `deadlineMs`. A rejection is ambiguous: the events may
   * still commit later; callers that need the truth recorded queue a closing event with `ensure`.
   */
  append(
    drafts: readonly AuditEventDraft[],
    deadlineMs = this.options.writeDeadlineMs,
    options: AppendOptions = {},
  ): Promise<EntryOutcome[]> {
    if (!tracingEnabled()) return this.appendDurably(drafts, deadlineMs, options);
    // One span from the call's side: until its events are durable (ADR 019).
    return inSpan(
      SpanName.AUDIT_WRITE,
      { attributes: { [TraceAttr.AUDIT_EVENTS]: drafts.map((d) => d.event) } },
      () => this.appendDurably(drafts, deadlineMs, options),
    );
  }

  private appendDurably(
    drafts: readonly AuditEventDraft[],
    deadlineMs: number,
    options: AppendOptions,
  ): Promise<EntryOutcome[]> {
    if (this.closed) return Promise.reject(new AuditUnavailableError('the gateway is shutting down'));
    return new Promise<EntryOutcome[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.alarms?.raise('audit_write_failed', `no confirmation within ${deadlineMs} ms`);
        reject(new AuditUnavailableError(`no confirmation within ${deadlineMs} ms`));
      }, deadlineMs);
      this.enqueue({
        entries: toEntries(drafts, options),
        resolve: (o) => (clearTimeout(timer), resolve(o)),
        reject: (e) => (
          clearTimeout(timer),
          reject(
            e instanceof AuditUnavailableError || e instanceof StatementRefusedError
              ? e
              : new AuditUnavailableError((e as Error)?.message ?? String(e), { cause: e }),
          )
        ),
      });
    });
  }

  /**
   * Appends events that must reach the trail eventually: tried now, then retried in the background
   * until the store accepts them. Never rejects.
   */
  ensure(drafts: readonly AuditEventDraft[], options: AppendOptions = {}): void {
    const entries = toEntries(drafts, options);
    this.enqueue({ entries, resolve: () => undefined, reject: () => this.retryLater(entries) });
  }

  /** Writes `drafts` inside an existing transaction (admin changes and their events commit together). */
  appendInTransaction(
    em: EntityManager,
    drafts: readonly AuditEventDraft[],
    options: AppendOptions = {},
  ): Promise<EntryOutcome[]> {
    return this.chain.append(toEntries(drafts, options), em);
  }

  private enqueue(group: Group): void {
    const lane = this.lanes[laneOf(group.entries[0]?.draft.tenantId ?? '', this.lanes.length)]!;
    lane.queue.push(group);
    this.schedule(lane);
  }

  private schedule(lane: Lane): void {
    if (lane.scheduled || lane.inFlight >= this.options.batchesInFlight || !lane.queue.length) return;
    lane.scheduled = true;
    // setImmediate lets requests that arrive in the same tick join the batch.
    setImmediate(() => {
      lane.scheduled = false;
      void this.flushOne(lane);
    });
  }

  /**
   * Writes one batch. Up to `batchesInFlight` batches of a lane are taken at once; the chain
   * repository builds the next while the one before it is written and sends one tenant's batches
   * one after another (ADR 017), so the next is ready when the previous one commits.
   */
  private async flushOne(lane: Lane): Promise<void> {
    const batch: Group[] = [];
    let size = 0;
    while (lane.queue.length && size < this.options.maxBatch) {
      // A group with a guarded sidecar (an approved call's claim) goes alone: its refusal rolls
      // its batch back, and must not take other callers' events with it (ADR 049).
      const alone = lane.queue[0]!.entries.some((e) => e.sidecar?.guarded);
      if (alone && batch.length) break;
      const g = lane.queue.shift()!;
      batch.push(g);
      size += g.entries.length;
      if (alone) break;
    }
    if (!batch.length) return;
    lane.inFlight++;
    this.schedule(lane);
    try {
      const outcomes = await this.appendWithRetry(batch.flatMap((g) => g.entries));
      let at = 0;
      for (const g of batch) {
        g.resolve(outcomes.slice(at, at + g.entries.length));
        at += g.entries.length;
      }
    } catch (err) {
      // A claim another gateway won is an answer, not a failure of the store.
      if (err instanceof StatementRefusedError) {
        for (const g of batch) g.reject(err);
        return;
      }
      this.logger.warn(`audit batch of ${size} event(s) failed: ${(err as Error).message}`);
      this.alarms?.raise(
        'audit_write_failed',
        `a batch of ${size} event(s) failed: ${(err as Error).message}`,
      );
      for (const g of batch) g.reject(err);
    } finally {
      lane.inFlight--;
      this.schedule(lane);
    }
  }

  /**
   * A deadlock rolls the whole batch back, so it is safe (and usually enough) to try again. On
   * Galera a certification conflict is the same error at COMMIT (ADR 042), and the locked path's
   * row locks do not reach the other nodes: two nodes' writers can meet several times in a row, so
   * the attempts are more and spread by a short random pause.
   */
  private async appendWithRetry(entries: ChainEntry[]): Promise<EntryOutcome[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.chain.append(entries);
      } catch (err) {
        if (attempt >= APPEND_ATTEMPTS || !isRetryableTransactionError(err)) throw err;
        await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
      }
    }
  }

  private retryLater(entries: ChainEntry[]): void {
    this.retrying.add(entries);
    if (this.retryTimer) return;
    const attempt = async () => {
      this.retryTimer = undefined;
      for (const e of [...this.retrying]) {
        try {
          await this.chain.append(e);
          this.retrying.delete(e);
        } catch {
          break;
        }
      }
      if (this.retrying.size && !this.closed) {
        this.retryTimer = setTimeout(() => void attempt(), this.options.retryIntervalMs);
        this.retryTimer.unref();
      }
    };
    this.retryTimer = setTimeout(() => void attempt(), this.options.retryIntervalMs);
    this.retryTimer.unref();
  }

  /** Drains the queue and tries once more for pending retries before the connection closes. */
  async onApplicationShutdown(): Promise<void> {
    const busy = () => this.lanes.some((l) => l.inFlight || l.queue.length);
    for (let i = 0; i < 100 && busy(); i++) await new Promise((r) => setTimeout(r, 20));
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const e of [...this.retrying]) {
      try {
        await this.chain.append(e);
        this.retrying.delete(e);
      } catch {
        this.logger.error(
          `${e.length} audit event(s) could not be written before shutdown; the reconciler will close their calls as interrupted`,
        );
      }
    }
  }
}
