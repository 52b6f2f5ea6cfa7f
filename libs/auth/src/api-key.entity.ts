import { dateTime3, jsonColumn } from '@toolgate/database';
import { Exclude } from 'class-transformer';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Role } from './roles.js';

/** An API key. Only a hash of the secret is stored; the secret is shown once, at creation. */
@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 32 })
  role!: Role;

  @Index('idx_api_keys_tenant')
  @Column({ name: 'tenant_id', type: 'varchar', length: 64, nullable: true })
  tenantId!: string | null;

  @Column({ name: 'agent_types', ...jsonColumn({ nullable: true }) })
  agentTypes!: string[] | null;

  /** SHA-256 of the secret; never serialized. */
  @Exclude()
  @Index('uq_api_keys_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash!: string;

  /** The first characters of the secret, so people can tell their keys apart. */
  @Column({ name: 'key_prefix', type: 'varchar', length: 16 })
  keyPrefix!: string;

  /**
   * The person who answers for the key (`<provider>:<subject>`, e.g. `oidc:8f2c…`): that person may
   * not approve what the key asks (separation of duties compares people). Null: nobody recorded.
   */
  @Column({ type: 'varchar', length: 300, nullable: true })
  owner!: string | null;

  @Column({ name: 'created_by', type: 'varchar', length: 64 })
  createdBy!: string;

  @Column({ name: 'created_at', ...dateTime3() })
  createdAt!: Date;

  @Column({ name: 'revoked_at', ...dateTime3({ nullable: true }) })
  revokedAt!: Date | null;

  /** Marks keys made at boot when no TOOLGATE_ADMIN_KEY is set; each boot replaces the last one. */
  @Column({ type: 'boolean', default: false })
  bootstrap!: boolean;
}
