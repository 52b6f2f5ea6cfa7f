import { dateTime3 } from '@toolgate/database';
import { Entity, Index, PrimaryColumn, Column } from 'typeorm';

/** A Feishu callback already accepted (its event id or nonce): a second one is a replay. */
@Entity('notification_callback_nonces')
@Index('idx_notification_callback_nonces_seen', ['seenAt'])
export class CallbackNonceEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ type: 'varchar', length: 128 })
  nonce!: string;

  @Column({ name: 'seen_at', ...dateTime3() })
  seenAt!: Date;
}
