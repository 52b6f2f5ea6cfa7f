import { dateTime3 } from '@toolgate/database';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** pending → sending → delivered; a failed attempt goes back to pending until the last, then dead. */
export const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'dead', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One message to one channel about one approval (the outbox). Written apart from the call's path
 * and sent by whichever gateway polls first; unique per (tenant, approval, channel, occasion), so
 * a message is planned once however many gateways plan it.
 */
@Entity('notification_deliveries')
@Index('uq_notification_deliveries_target', ['tenantId', 'approvalId', 'channel', 'occasion'], {
  unique: true,
})
@Index('idx_notification_deliveries_tenant_created', ['tenantId', 'createdAt'])
@Index('idx_notification_deliveries_due', ['status', 'nextAttemptAt'])
export class NotificationDeliveryEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'approval_id', type: 'varchar', length: 64 })
  approvalId!: string;

  @Column({ type: 'varchar', length: 64 })
  channel!: string;

  @Column({ name: 'channel_type', type: 'varchar', length: 16 })
  channelType!: string;

  /** request | reminder | escalation */
  @Column({ type: 'varchar', length: 16 })
  kind!: string;

  /** `request`, `reminder:<ms before expiry>` or `escalation`: what makes the message unique. */
  @Column({ type: 'varchar', length: 40 })
  occasion!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: DeliveryStatus;

  /** Attempts since the delivery was planned or last retried by hand. */
  @Column({ type: 'int' })
  attempts!: number;

  /** Every attempt ever made: the attempt log's sequence. */
  @Column({ name: 'total_attempts', type: 'int' })
  totalAttempts!: number;

  @Column({ name: 'next_attempt_at', ...dateTime3() })
  nextAttemptAt!: Date;

  /** A gateway sending it holds it until then; past that another gateway takes it over. */
  @Column({ name: 'lease_until', ...dateTime3({ nullable: true }) })
  leaseUntil!: Date | null;

  /** The last failure, with every secret scrubbed. */
  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;

  @Column({ name: 'created_at', ...dateTime3() })
  createdAt!: Date;

  @Column({ name: 'updated_at', ...dateTime3() })
  updatedAt!: Date;
}
