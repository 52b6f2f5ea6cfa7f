import { Injectable } from '@nestjs/common';
import { SiemForwarder } from '@toolgate/audit';
import { Counter, Gauge } from 'prom-client';
import { MetricsRegistry } from './metrics.registry.js';

/**
 * The SIEM forwarder in /metrics (ADR 038). Sent, failures and dead-lettered are this process's
 * counts (sum them over the gateways; only the lease holder sends); lag and stored dead letters
 * are read from the database at each scrape, the same from every gateway.
 */
/** A scrape reads the sinks' state once: both gauges reuse one read this young. */
const STATUS_REUSE_MS = 1_000;

@Injectable()
export class SiemMetrics {
  constructor(siem: SiemForwarder, metrics: MetricsRegistry) {
    const registers = [metrics.registry];
    // Both database gauges of one scrape share one read of the sinks' state.
    let shared: { at: number; status: ReturnType<SiemForwarder['status']> } | undefined;
    const status = () => {
      if (!shared || Date.now() - shared.at > STATUS_REUSE_MS)
        // A database that does not answer leaves the gauges as they were: /metrics itself still answers.
        shared = { at: Date.now(), status: siem.status().catch(() => []) };
      return shared.status;
    };
    const counter = (
      name: string,
      help: string,
      pick: (c: { sent: number; failures: number; deadLettered: number }) => number,
    ) =>
      new Counter({
        name,
        help,
        labelNames: ['sink'],
        registers,
        collect() {
          this.reset();
          for (const [sink, c] of siem.counters()) this.inc({ sink }, pick(c));
        },
      });
    counter(
      'toolgate_siem_sent_total',
      'Audit events delivered to a SIEM sink by this gateway',
      (c) => c.sent,
    );
    counter(
      'toolgate_siem_failures_total',
      'Failed attempts to deliver a batch to a SIEM sink',
      (c) => c.failures,
    );
    counter(
      'toolgate_siem_dead_lettered_total',
      'Events this gateway dead-lettered for a SIEM sink',
      (c) => c.deadLettered,
    );
    new Gauge({
      name: 'toolgate_siem_lag_events',
      help: 'Committed audit events a SIEM sink has not received yet (all tenants)',
      labelNames: ['sink'],
      registers,
      async collect() {
        for (const s of await status()) {
          this.set({ sink: s.name }, s.lag);
        }
      },
    });
    new Gauge({
      name: 'toolgate_siem_dead_letters',
      help: 'Dead letters stored for a SIEM sink (events its receiver refused for good)',
      labelNames: ['sink'],
      registers,
      async collect() {
        for (const s of await status()) this.set({ sink: s.name }, s.deadLetters);
      },
    });
    new Gauge({
      name: 'toolgate_siem_lease_held',
      help: 'Whether this gateway forwards for a SIEM sink (holds its lease)',
      labelNames: ['sink'],
      registers,
      collect() {
        for (const [sink, c] of siem.counters()) this.set({ sink }, c.holding ? 1 : 0);
      },
    });
  }
}
