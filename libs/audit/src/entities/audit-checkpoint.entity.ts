import { dateTime3 } from '@toolgate/database';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A signed statement "tenant T's chain had `seq` events ending in `headHash` at `signedAt`". */
@Entity('audit_checkpoints')
@Index('idx_audit_checkpoints_tenant', ['tenantId', 'seq'])
export class AuditCheckpointEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ type: 'bigint' })
  seq!: string;

  @Column({ name: 'head_hash', type: 'varchar', length: 64 })
  headHash!: string;

  @Column({ name: 'signed_at', ...dateTime3() })
  signedAt!: Date;

  @Column({ name: 'key_id', type: 'varchar', length: 64 })
  keyId!: string;

  @Column({ type: 'varchar', length: 200 })
  signature!: string;

  /** The stretch a version-2 checkpoint's public digest covers starts after this seq (ADR 030). */
  @Column({ name: 'from_seq', type: 'bigint', nullable: true })
  fromSeq!: string | null;

  @Column({ name: 'from_hash', type: 'varchar', length: 64, nullable: true })
  fromHash!: string | null;

  /** SHA-256 (SM3 for `sm2-sm3`) chain over the stretch's events, recomputable without the chain key; null before ADR 030. */
  @Column({ name: 'public_digest', type: 'varchar', length: 64, nullable: true })
  publicDigest!: string | null;

  /**
   * `sm2-sm3`: signed with SM2 over an SM3 public digest (ADR 040); null: Ed25519 over SHA-256.
   * Also inside the signed statement, so a changed column makes the signature fail.
   */
  @Column({ type: 'varchar', length: 16, nullable: true })
  algorithm!: string | null;
}
