import { dateTime3, jsonColumn } from '@toolgate/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What one Idempotency-Key of a tenant stands for: one logical call and, once done, its answer. */
@Entity('idempotency_records')
export class IdempotencyRecordEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ name: 'idem_key', type: 'varchar', length: 200 })
  key!: string;

  @Column({ name: 'input_digest', type: 'varchar', length: 64 })
  inputDigest!: string;

  /** The call now standing for the key (a retry after a crash gets a new one). */
  @Column({ name: 'call_id', type: 'varchar', length: 64 })
  callId!: string;

  /** The first call's id: the stable identity the upstream idempotency key derives from. */
  @Column({ type: 'varchar', length: 64 })
  identity!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: 'in_progress' | 'done' | 'parked';

  @Column({ name: 'http_status', type: 'int', nullable: true })
  httpStatus!: number | null;

  @Column(jsonColumn({ nullable: true }))
  envelope!: Record<string, any> | null;

  @Column({ name: 'owner_instance', type: 'varchar', length: 128 })
  ownerInstance!: string;

  @Column({ name: 'created_at', ...dateTime3() })
  createdAt!: Date;

  @Column({ name: 'expires_at', ...dateTime3() })
  expiresAt!: Date;
}
