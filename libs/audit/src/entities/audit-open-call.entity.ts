import { dateTime3 } from '@toolgate/database';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Bookkeeping, not the trail: one row per call with a `started` event and no closing event yet.
 * Backs the "incomplete" view and the reconciler; rows leave when the call is closed.
 */
@Entity('audit_open_calls')
export class AuditOpenCallEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ name: 'call_id', type: 'varchar', length: 64 })
  callId!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  tool!: string | null;

  @Index('idx_audit_open_calls_instance')
  @Column({ name: 'instance_id', type: 'varchar', length: 128, nullable: true })
  instanceId!: string | null;

  @Column({ name: 'started_at', ...dateTime3() })
  startedAt!: Date;
}
