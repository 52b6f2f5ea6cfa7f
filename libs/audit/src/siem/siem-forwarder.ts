import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InstanceRegistry, runPeriodically } from '@toolgate/database';
import { Egress } from '@toolgate/egress';
import { AuditAlarms } from '../alarms/audit-alarms.js';
import { AuditEventsRepository } from '../query/audit-events.repository.js';
import { SIEM_OPTIONS, type SiemOptions, type SinkOptions } from './siem.options.js';
import { SinkRunner, type EventReader, type SinkCounters } from './sink-runner.js';
import { SinkStateRepository, type DeadLetter } from './sink-state.repository.js';
import { HttpsTransport } from './transports/https-transport.js';
import { SyslogTransport } from './transports/syslog-transport.js';
import type { SinkTransport } from './transports/sink-transport.js';

/** The product version CEF headers state: the REST contract's version, as the OpenAPI document's. */
export const SIEM_PRODUCT_VERSION = '1';
/** Dead letters listed at most per request. */
export const MAX_DEAD_LETTERS_LISTED = 500;

/** A sink as `GET /v1/audit/sinks` shows it. */
export interface SinkStatus {
  readonly name: string;
  readonly kind: SinkOptions['kind'];
  /** `syslog+tls://host:port`, `syslog+tcp://host:port` or the URL without its query. */
  readonly target: string;
  readonly format: string;
  /** Committed events not yet delivered, all tenants. */
  readonly lag: number;
  readonly deadLetters: number;
  /** The gateway forwarding for the sink now (its lease), if any. */
  readonly leaseHolder: string | null;
  readonly leaseExpiresAt: string | null;
  /** This gateway's counts since it started (another gateway may hold the lease). */
  readonly here: {
    readonly holding: boolean;
    readonly sent: number;
    readonly failures: number;
    readonly deadLettered: number;
    readonly lastError: string | null;
    readonly lastErrorAt: string | null;
    readonly lastDeliveredAt: string | null;
    readonly retryAt: string | null;
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function targetOf(o: SinkOptions): string {
  if (o.kind === 'syslog') return `syslog+${o.tls ? 'tls' : 'tcp'}://${o.host}:${o.port}`;
  const url = new URL(o.url);
  return `${url.origin}${url.pathname}`;
}

/**
 * Forwards every committed audit event, all tenants, to the configured sinks (ADR 038). Like the
 * call projector (ADR 033) it follows each tenant's chain by seq off the write path, from a
 * durable cursor moved only by compare-and-move; unlike it, one gateway per sink forwards (a
 * lease), because what it does — sending — cannot be rolled back with a lost race.
 */
@Injectable()
export class SiemForwarder implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SiemForwarder');
  private readonly runners: SinkRunner[];
  private stop?: () => void;
  private running?: Promise<number>;

  constructor(
    @Inject(SIEM_OPTIONS) private readonly options: SiemOptions,
    private readonly state: SinkStateRepository,
    events: AuditEventsRepository,
    egress: Egress,
    instances: InstanceRegistry,
    @Optional() alarms?: AuditAlarms,
  ) {
    const read: EventReader = (tenantId, afterSeq, head, limit) =>
      events.after(tenantId, afterSeq, head, limit);
    const { sinks, ...settings } = options;
    // The holder is the instance id: a gateway restarted under the same id (after a crash) takes
    // its lease back at once; the cursors are where the dead process left them.
    const holder = instances.instanceId;
    // A sink that keeps failing is an audit alarm (等保 2.0 8.1.5.4 d: collection stopped), like a failed write.
    const alarm = (_sink: string, reason: string) => alarms?.raise('siem_sink_failing', reason);
    this.runners = sinks.map(
      (sink) =>
        new SinkRunner(
          sink,
          this.transportOf(sink, egress),
          state,
          read,
          settings,
          holder,
          Math.random,
          alarm,
        ),
    );
  }

  private transportOf(sink: SinkOptions, egress: Egress): SinkTransport {
    return sink.kind === 'syslog'
      ? new SyslogTransport(sink, egress.policy, SIEM_PRODUCT_VERSION)
      : new HttpsTransport(sink, egress.policy);
  }

  onApplicationBootstrap(): void {
    if (!this.runners.length) return;
    this.stop = runPeriodically(
      this.options.intervalMs,
      () => this.forward(),
      (err) => this.logger.warn(`SIEM forwarding failed: ${err.message}`),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stop?.();
    await this.running?.catch(() => undefined);
    await Promise.all(this.runners.map((r) => r.close()));
  }

  /** One pass over every sink (a caller that arrives during a pass waits for the next one). */
  async forward(): Promise<number> {
    while (this.running) await this.running.catch(() => undefined);
    this.running = Promise.all(
      this.runners.map((r) =>
        r.pass().catch((err: Error) => {
          this.logger.warn(`SIEM sink ${r.options.name}: ${err.message}`);
          return 0;
        }),
      ),
    ).then((n) => n.reduce((a, b) => a + b, 0));
    try {
      return await this.running;
    } finally {
      this.running = undefined;
    }
  }

  /**
   * How far every sink has delivered `tenantId`'s chain; undefined when no sink is configured.
   * Retention purges no further (ADR 038: a purge must not take events a sink has not sent yet).
   */
  async deliveredThrough(tenantId: string): Promise<number | undefined> {
    return this.runners.length ? this.state.deliveredThrough(this.sinkNames(), tenantId) : undefined;
  }

  /** The configured sinks' names. */
  sinkNames(): string[] {
    return this.runners.map((r) => r.options.name);
  }

  /** This process's counters of each sink (for /metrics). */
  counters(): ReadonlyMap<string, Readonly<SinkCounters>> {
    return new Map(this.runners.map((r) => [r.options.name, r.counters]));
  }

  /** Lag of a sink as the database has it. */
  async lag(name: string): Promise<number> {
    return (await this.state.state(name)).lag;
  }

  /** Every sink's status. */
  async status(): Promise<SinkStatus[]> {
    return Promise.all(
      this.runners.map(async (r) => {
        const o = r.options;
        const stored = await this.state.state(o.name);
        const c = r.counters;
        return {
          name: o.name,
          kind: o.kind,
          target: targetOf(o),
          format: o.kind === 'syslog' ? `rfc5424+${o.payload}` : o.format,
          lag: stored.lag,
          deadLetters: stored.deadLetters,
          leaseHolder: stored.leaseExpiresAt && stored.leaseExpiresAt > new Date() ? stored.holder : null,
          leaseExpiresAt: iso(stored.leaseExpiresAt),
          here: {
            holding: c.holding,
            sent: c.sent,
            failures: c.failures,
            deadLettered: c.deadLettered,
            lastError: c.lastError,
            lastErrorAt: iso(c.lastErrorAt),
            lastDeliveredAt: iso(c.lastDeliveredAt),
            retryAt: iso(c.retryAt),
          },
        };
      }),
    );
  }

  /** A sink's dead letters, newest first; null when no sink has that name. */
  async deadLetters(name: string, limit: number, tenantId?: string): Promise<DeadLetter[] | null> {
    if (!this.runners.some((r) => r.options.name === name)) return null;
    return this.state.deadLetters(name, Math.min(limit, MAX_DEAD_LETTERS_LISTED), tenantId);
  }
}
