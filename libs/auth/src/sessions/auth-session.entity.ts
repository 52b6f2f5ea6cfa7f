import { dateTime3 } from '@toolgate/database';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Role } from '../roles.js';

/**
 * A signed-in person's browser session. The cookie holds a random id; only its SHA-256 is stored,
 * so the table alone cannot be replayed as cookies. Role and tenant are fixed at sign-in.
 */
@Entity('auth_sessions')
export class AuthSessionEntity {
  @PrimaryColumn({ name: 'id_hash', type: 'varchar', length: 64 })
  idHash!: string;

  /** The identity provider's id in configuration (`oidc`). */
  @Column({ type: 'varchar', length: 32 })
  provider!: string;

  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name!: string | null;

  @Column({ type: 'varchar', length: 320, nullable: true })
  email!: string | null;

  @Column({ type: 'varchar', length: 32 })
  role!: Role;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64, nullable: true })
  tenantId!: string | null;

  /** The synchronizer token every state-changing request of this session must echo. */
  @Column({ name: 'csrf_token', type: 'varchar', length: 64 })
  csrfToken!: string;

  @Column({ name: 'created_at', ...dateTime3() })
  createdAt!: Date;

  @Index('idx_auth_sessions_expires')
  @Column({ name: 'expires_at', ...dateTime3() })
  expiresAt!: Date;
}
