import { dateTime3 } from '@toolgate/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One attempt to send a delivery: the delivery log the console shows. */
@Entity('notification_attempts')
export class NotificationAttemptEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ name: 'delivery_id', type: 'varchar', length: 40 })
  deliveryId!: string;

  @PrimaryColumn({ type: 'int' })
  seq!: number;

  /** ok | failed */
  @Column({ type: 'varchar', length: 8 })
  status!: string;

  @Column({ name: 'http_status', type: 'int', nullable: true })
  httpStatus!: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error!: string | null;

  @Column({ name: 'duration_ms', type: 'int' })
  durationMs!: number;

  @Column({ name: 'attempted_at', ...dateTime3() })
  attemptedAt!: Date;
}
