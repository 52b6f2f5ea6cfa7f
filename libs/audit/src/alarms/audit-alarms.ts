import { Injectable, Logger } from '@nestjs/common';

/** What went wrong with the trail itself (等保 2.0 8.1.4.3 d). */
export type AuditAlarmKind =
  /** An append was refused or not confirmed in time: calls fail closed (AUDIT_UNAVAILABLE). */
  | 'audit_write_failed'
  /** A verification, or a checkpoint's own, found the chain broken. */
  | 'audit_chain_broken'
  /** A tenant's archive or purge failed: the trail is kept past its retention, or not yet archived (ADR 037). */
  | 'audit_retention_failed'
  /** A SIEM sink failed `siem.alarmAfterFailures` attempts in a row: central collection stopped (ADR 038). */
  | 'siem_sink_failing';

/** One alarm, as the trail raises it. */
export interface AuditAlarm {
  readonly kind: AuditAlarmKind;
  /** The tenant whose chain broke; absent for a write that failed (a batch mixes tenants). */
  readonly tenantId?: string;
  /** What happened, in one line (no secrets: error messages of the store, chain problems). */
  readonly reason: string;
  readonly at: Date;
}

/** Alarms kept for the first listener at most (raised before it subscribed). */
const MAX_EARLY_ALARMS = 100;

/** Hears alarms; must not throw (a failure is logged and dropped). */
export type AuditAlarmListener = (alarm: AuditAlarm) => void;

/**
 * Where the trail reports that it is failing: writes that fail (the fail-closed refusals) and
 * chains found broken. The trail only raises; listeners (the gateway: a metric, an error log line
 * and the platform's alarm channels, ADR 039) decide what to do. Raising never blocks or throws.
 */
@Injectable()
export class AuditAlarms {
  private readonly logger = new Logger('AuditAlarms');
  private readonly listeners = new Set<AuditAlarmListener>();
  /**
   * Alarms raised before anyone listened (a sink failing while the gateway still boots: its
   * forwarder starts before the relay subscribes), handed to the first listener. Bounded.
   */
  private early: AuditAlarm[] | null = [];

  /** Adds a listener; answers the function that removes it. The first one hears what came before it. */
  subscribe(listener: AuditAlarmListener): () => void {
    this.listeners.add(listener);
    const early = this.early;
    this.early = null;
    for (const alarm of early ?? []) this.tell(listener, alarm);
    return () => this.listeners.delete(listener);
  }

  raise(kind: AuditAlarmKind, reason: string, tenantId?: string): void {
    const alarm: AuditAlarm = { kind, reason, at: new Date(), ...(tenantId ? { tenantId } : {}) };
    if (this.early && this.early.length < MAX_EARLY_ALARMS) this.early.push(alarm);
    for (const listener of this.listeners) this.tell(listener, alarm);
  }

  private tell(listener: AuditAlarmListener, alarm: AuditAlarm): void {
    try {
      listener(alarm);
    } catch (err) {
      this.logger.warn(`an audit alarm listener failed: ${(err as Error).message}`);
    }
  }
}
