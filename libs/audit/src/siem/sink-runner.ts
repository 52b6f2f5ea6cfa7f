import type { AuditEventRecord } from '../audit-fields.js';
import { siemRecord } from './formats/siem-record.js';
import type { SiemOptions, SinkOptions } from './siem.options.js';
import type { DeadLetter, SinkBehind, SinkStateRepository } from './sink-state.repository.js';
import type { SendOutcome, SinkTransport } from './transports/sink-transport.js';

/** What this process has done for a sink since it started (the database holds the rest). */
export interface SinkCounters {
  sent: number;
  failures: number;
  deadLettered: number;
  lastError: string | null;
  lastErrorAt: Date | null;
  lastDeliveredAt: Date | null;
  /** No attempt before this (backing off after a failure). */
  retryAt: Date | null;
  /** Whether this gateway held the sink's lease at its last look. */
  holding: boolean;
}

/** Reads a tenant's events after a seq, at most `limit`, up to `head` (inclusive). */
export type EventReader = (
  tenantId: string,
  afterSeq: number,
  head: number,
  limit: number,
) => Promise<readonly AuditEventRecord[]>;

/** Told once per incident when a sink keeps failing (the `siem_sink_failing` audit alarm). */
export type SinkAlarm = (sink: string, reason: string) => void;

/** How a pass over one tenant ended. */
type TenantPass = 'caught-up' | 'stop';

/**
 * One sink's forwarding on this gateway: while it holds the sink's lease, every tenant's events
 * after the sink's cursor, a batch at a time — sent, then the cursor moved (compare and move: if
 * another gateway moved it meanwhile, this one stops). A batch is marked sent only after the
 * receiver took it, so a crash between the two sends it again: at-least-once, with at most the
 * batch in flight twice per sink and tenant (ADR 038).
 */
export class SinkRunner {
  readonly counters: SinkCounters = {
    sent: 0,
    failures: 0,
    deadLettered: 0,
    lastError: null,
    lastErrorAt: null,
    lastDeliveredAt: null,
    retryAt: null,
    holding: false,
  };
  private failuresInRow = 0;
  /** Failed attempts since the last delivery (every kind), for the alarm. */
  private failingSince = 0;
  /** The alarm of this incident was raised: not again before a delivery. */
  private alarmed = false;
  /** Failures of the current batch that the receiver answered (HTTP 5xx). */
  private answeredInRow = 0;
  /**
   * Syslog only: the last batch of each tenant counted delivered since the receiver last failed.
   * Syslog has no acknowledgement, and a receiver that stops may close a connection cleanly after
   * reading a batch it then never writes (seen with rsyslogd under load: ADR 038 §3). When the
   * next connection fails, those batches are sent again: at most one batch per tenant per
   * incident, the documented duplicates window, instead of a silent gap.
   */
  private readonly unconfirmed = new Map<string, { readonly from: number; readonly to: number }>();
  /** Events per batch now: halved to isolate a record the receiver refuses, grown back after. */
  private limit: number;

  constructor(
    readonly options: SinkOptions,
    private readonly transport: SinkTransport,
    private readonly state: SinkStateRepository,
    private readonly read: EventReader,
    private readonly settings: Omit<SiemOptions, 'sinks'>,
    private readonly holder: string,
    private readonly random: () => number = Math.random,
    private readonly alarm?: SinkAlarm,
  ) {
    this.limit = options.batchSize;
  }

  /** One look: the lease, then every tenant behind. Answers the events delivered. */
  async pass(now = new Date()): Promise<number> {
    if (this.counters.retryAt && now < this.counters.retryAt) return 0;
    this.counters.holding = await this.state.lease(this.options.name, this.holder, this.settings.leaseMs);
    if (!this.counters.holding) return 0;
    const before = this.counters.sent;
    for (const tenant of await this.state.behind(this.options.name)) {
      if ((await this.tenantPass(tenant)) === 'stop') break;
    }
    return this.counters.sent - before;
  }

  private async tenantPass({ tenantId, sent, head }: SinkBehind): Promise<TenantPass> {
    let cursor = sent;
    while (cursor < head) {
      const events = await this.read(tenantId, cursor, head, this.limit);
      if (!events.length) return 'caught-up';
      const last = events.at(-1)!.seq;
      const records = events.map((e) => siemRecord(e, this.options.maxRecordBytes));
      const outcome = await this.transport.send(records, {
        sink: this.options.name,
        tenantId,
        fromSeq: events[0]!.seq,
        toSeq: last,
      });
      const next = await this.settle(outcome, tenantId, cursor, events);
      if (next === null) return 'stop';
      cursor = next;
      // A long catch-up must not outlive the lease: renew it between batches.
      if (!(await this.state.lease(this.options.name, this.holder, this.settings.leaseMs))) {
        this.counters.holding = false;
        return 'stop';
      }
    }
    return 'caught-up';
  }

  /** Acts on a batch's outcome; answers the tenant's new cursor, or null to stop this pass. */
  private async settle(
    outcome: SendOutcome,
    tenantId: string,
    cursor: number,
    events: readonly AuditEventRecord[],
  ): Promise<number | null> {
    const last = events.at(-1)!.seq;
    if (outcome.kind === 'delivered') {
      if (!(await this.state.advance(this.options.name, tenantId, cursor, last))) return null;
      if (this.options.kind === 'syslog') this.unconfirmed.set(tenantId, { from: cursor, to: last });
      this.counters.sent += events.length;
      this.counters.lastDeliveredAt = new Date();
      this.failuresInRow = 0;
      this.answeredInRow = 0;
      this.failingSince = 0;
      this.alarmed = false;
      this.counters.retryAt = null;
      this.limit = Math.min(this.options.batchSize, this.limit * 2);
      return last;
    }
    this.note(outcome.reason);
    if (outcome.kind === 'failed') {
      if (outcome.answered) this.answeredInRow++;
      if (!outcome.answered) await this.resendUnconfirmed();
      if (!outcome.answered || this.answeredInRow < this.settings.maxAttempts) {
        this.backOff();
        return null;
      }
    }
    // Refused, or answered with failures too often: narrow down to the record it cannot take.
    this.answeredInRow = 0;
    if (events.length > 1) {
      this.limit = Math.ceil(events.length / 2);
      return cursor;
    }
    const e = events[0]!;
    const dead: DeadLetter = {
      tenantId,
      seq: e.seq,
      event: e.event,
      hash: e.hash,
      reason: outcome.reason,
      attempts: outcome.kind === 'refused' ? 1 : this.settings.maxAttempts,
      failedAt: new Date(),
    };
    if (!(await this.state.advance(this.options.name, tenantId, cursor, e.seq, [dead]))) return null;
    this.counters.deadLettered++;
    return e.seq;
  }

  /** Moves each tenant's cursor back over its last unconfirmed syslog batch (compare-and-move: a cursor that moved on meanwhile is left). */
  private async resendUnconfirmed(): Promise<void> {
    const batches = [...this.unconfirmed];
    this.unconfirmed.clear();
    for (const [tenantId, { from, to }] of batches)
      await this.state.advance(this.options.name, tenantId, to, from).catch(() => false);
  }

  private note(reason: string): void {
    this.counters.failures++;
    this.counters.lastError = reason;
    this.counters.lastErrorAt = new Date();
    // Backoff keeps a sink quiet for up to retryMaxMs between attempts, so "keeps failing" is
    // counted in attempts, not time: the alarm says central collection stopped, once per incident.
    this.failingSince++;
    const after = this.settings.alarmAfterFailures;
    if (after > 0 && !this.alarmed && this.failingSince >= after) {
      this.alarmed = true;
      this.alarm?.(
        this.options.name,
        `SIEM sink ${this.options.name}: ${this.failingSince} attempts failed in a row (last: ${reason})`,
      );
    }
  }

  /** Exponential backoff with jitter (half to all of the step), capped. */
  private backOff(): void {
    this.failuresInRow++;
    const step = Math.min(
      this.settings.retryMaxMs,
      this.settings.retryBaseMs * 2 ** (this.failuresInRow - 1),
    );
    this.counters.retryAt = new Date(Date.now() + step * (0.5 + this.random() / 2));
  }

  /** Gives up the lease (shutdown) and closes the transport. */
  async close(): Promise<void> {
    if (this.counters.holding)
      await this.state.release(this.options.name, this.holder).catch(() => undefined);
    await this.transport.close();
  }
}
