import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CallRecordsSink } from '@toolgate/calls';
import { fromSqlDateTime, InstanceRegistry, runPeriodically } from '@toolgate/database';
import { AUDIT_OPTIONS, type AuditOptions } from '../audit.options.js';
import { draftEvent } from '../audit-fields.js';
import { AuditWriter } from '../chain/audit-writer.js';
import { AuditEventsRepository } from '../query/audit-events.repository.js';

/**
 * Gives every `started` event its closing event when the process that ran the call died: at boot
 * (a restart with a stable instance id reclaims its own calls at once) and periodically for
 * gateways whose heartbeat stopped. Writes `interrupted`; dedupe keys keep it to one close per call.
 */
@Injectable()
export class AuditReconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditReconciler');
  private stopSchedule?: () => void;
  private readonly bootAt = new Date();

  constructor(
    private readonly events: AuditEventsRepository,
    private readonly writer: AuditWriter,
    private readonly instances: InstanceRegistry,
    @Inject(AUDIT_OPTIONS) private readonly options: AuditOptions,
    @Optional() private readonly records?: CallRecordsSink,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.reconcile().catch((err: Error) =>
      this.logger.warn(`reconcile at boot failed: ${err.message}`),
    );
    if (this.options.reconcileIntervalMs > 0)
      this.stopSchedule = runPeriodically(
        this.options.reconcileIntervalMs,
        () => this.reconcile(),
        (err) => this.logger.warn(`reconcile failed: ${err.message}`),
      );
  }

  onApplicationShutdown(): void {
    this.stopSchedule?.();
  }

  /** Closes the open calls of dead gateways; returns how many it closed. */
  async reconcile(): Promise<number> {
    const dead = await this.instances.staleInstances();
    const open = await this.events.openCallsOf([...dead, this.instances.instanceId]);
    // Calls of this instance id opened before this boot belong to a previous run of it.
    const orphaned = open.filter(
      (o) => o.instanceId !== this.instances.instanceId || fromSqlDateTime(o.startedAt) < this.bootAt,
    );
    if (!orphaned.length) return 0;
    const drafts = orphaned.map((o) =>
      draftEvent({
        tenantId: o.tenantId,
        event: 'interrupted',
        callId: o.callId,
        tool: o.tool,
        actor: { type: 'system', id: 'reconciler' },
        status: 'error',
        code: 'INTERRUPTED',
        details: {
          reason: `gateway ${o.instanceId} stopped while the call was running`,
          startedAt: fromSqlDateTime(o.startedAt).toISOString(),
        },
        occurredAt: new Date(),
        instanceId: this.instances.instanceId,
      }),
    );
    const outcomes = (
      await Promise.all(
        drafts.map((d) =>
          this.writer.append([d], 30_000, { sidecar: this.records?.interrupted(d.tenantId, d.callId!) }),
        ),
      )
    ).flat();
    const closed = outcomes.filter((o) => o === 'written').length;
    if (closed) this.logger.warn(`closed ${closed} call(s) of stopped gateways as interrupted`);
    return closed;
  }
}
