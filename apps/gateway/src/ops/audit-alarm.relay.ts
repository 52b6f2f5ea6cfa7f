import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AuditAlarms, type AuditAlarm } from '@toolgate/audit';
import { PlatformAlarms } from '@toolgate/notifications';
import { Counter, Gauge } from 'prom-client';
import { MetricsRegistry } from './metrics.registry.js';

/**
 * The alarm of 等保 2.0 8.1.4.3 d) (ADR 039): when the trail fails a write (calls fail closed) or
 * a chain is found broken, three things happen — `toolgate_audit_alarms_total{kind}` counts it and
 * `toolgate_audit_alarm_last_seconds{kind}` says when (a Prometheus rule alerts on either), an
 * error line goes to the log, and the platform's alarm channels hear of it (rate-limited there).
 */
@Injectable()
export class AuditAlarmRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditAlarm');
  private readonly raised: Counter<'kind'>;
  private readonly last: Gauge<'kind'>;
  private unsubscribe?: () => void;

  constructor(
    private readonly alarms: AuditAlarms,
    private readonly channels: PlatformAlarms,
    metrics: MetricsRegistry,
  ) {
    this.raised = new Counter({
      name: 'toolgate_audit_alarms_total',
      help: 'Audit alarms raised on this gateway, by kind (audit_write_failed: calls fail closed; audit_chain_broken: a verification found the chain altered; audit_retention_failed: a tenant could not be archived or purged; siem_sink_failing: a SIEM sink failed siem.alarmAfterFailures attempts in a row)',
      labelNames: ['kind'],
      registers: [metrics.registry],
    });
    this.last = new Gauge({
      name: 'toolgate_audit_alarm_last_seconds',
      help: 'When this gateway last raised an audit alarm of the kind (Unix seconds)',
      labelNames: ['kind'],
      registers: [metrics.registry],
    });
    // Every kind is exported from the start (at 0), so an alert rule sees the series before the first alarm.
    for (const kind of [
      'audit_write_failed',
      'audit_chain_broken',
      'audit_retention_failed',
      'siem_sink_failing',
    ])
      this.raised.inc({ kind }, 0);
  }

  onApplicationBootstrap(): void {
    this.unsubscribe = this.alarms.subscribe((alarm) => this.relay(alarm));
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }

  private relay(alarm: AuditAlarm): void {
    this.raised.inc({ kind: alarm.kind });
    this.last.set({ kind: alarm.kind }, alarm.at.getTime() / 1000);
    this.logger.error(
      `AUDIT ALARM ${alarm.kind}${alarm.tenantId ? ` (tenant ${alarm.tenantId})` : ''}: ${alarm.reason}`,
    );
    void this.channels
      .raise({
        kind: alarm.kind,
        summary: alarm.reason,
        at: alarm.at,
        ...(alarm.tenantId ? { tenantId: alarm.tenantId } : {}),
      })
      .catch((err: unknown) => this.logger.warn(`the alarm channels failed: ${(err as Error).message}`));
  }
}
