import { dateTime3 } from '@toolgate/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What `once()` remembers: this principal may call this tool (with this approval key) again in
 * this session.
 */
@Entity('approval_grants')
export class ApprovalGrantEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ name: 'principal_id', type: 'varchar', length: 64 })
  principalId!: string;

  @PrimaryColumn({ name: 'session_id', type: 'varchar', length: 128 })
  sessionId!: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  tool!: string;

  @PrimaryColumn({ name: 'grant_key', type: 'varchar', length: 200 })
  grantKey!: string;

  @Column({ name: 'approval_id', type: 'varchar', length: 64 })
  approvalId!: string;

  @Column({ name: 'expires_at', ...dateTime3() })
  expiresAt!: Date;
}
