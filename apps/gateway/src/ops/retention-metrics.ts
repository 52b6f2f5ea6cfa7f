import { Injectable } from '@nestjs/common';
import { RetentionJob, type TenantRetentionStatus } from '@toolgate/audit';
import { Gauge } from 'prom-client';
import { MetricsRegistry } from './metrics.registry.js';

/**
 * Retention in `/metrics` (ADR 037): per tenant, how far the chain is archived and purged and how
 * far the archive lags the head, and this gateway's run totals. Read from the database when
 * scraped (one query per table), never on a call's path.
 */
@Injectable()
export class RetentionMetrics {
  constructor(job: RetentionJob, metrics: MetricsRegistry) {
    const registers = [metrics.registry];
    // One status read per scrape, shared by the gauges below (each collects on its own).
    let read: { at: number; statuses: ReturnType<RetentionJob['status']> } | undefined;
    const statuses = () => {
      if (!read || Date.now() - read.at > 1_000) read = { at: Date.now(), statuses: job.status(null) };
      return read.statuses;
    };
    const perTenant = async (pick: (s: TenantRetentionStatus) => number, g: Gauge<'tenant'>) => {
      g.reset();
      for (const s of await statuses()) g.set({ tenant: s.tenantId }, pick(s));
    };
    new Gauge({
      name: 'toolgate_audit_archived_seq',
      help: "The seq each tenant's chain is archived through",
      labelNames: ['tenant'],
      registers,
      async collect() {
        await perTenant((s) => s.archivedThroughSeq, this);
      },
    });
    new Gauge({
      name: 'toolgate_audit_archive_lag_events',
      help: 'Events of each tenant’s chain not archived yet (head − archived)',
      labelNames: ['tenant'],
      registers,
      async collect() {
        await perTenant((s) => s.headSeq - s.archivedThroughSeq, this);
      },
    });
    new Gauge({
      name: 'toolgate_audit_purged_seq',
      help: "The seq each tenant's chain is purged through",
      labelNames: ['tenant'],
      registers,
      async collect() {
        await perTenant((s) => s.purgedThroughSeq, this);
      },
    });
    new Gauge({
      name: 'toolgate_audit_legal_hold',
      help: '1 while a tenant’s trail is on legal hold',
      labelNames: ['tenant'],
      registers,
      async collect() {
        await perTenant((s) => (s.retention.hold ? 1 : 0), this);
      },
    });
    new Gauge({
      name: 'toolgate_audit_retention_runs',
      help: 'This gateway’s archive-and-purge totals since it started, by kind',
      labelNames: ['kind'],
      registers,
      collect() {
        for (const [kind, n] of Object.entries(job.totals)) this.set({ kind }, n);
      },
    });
  }
}
