import { dateTime3 } from '@toolgate/database';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One person's decision on an approval; one per approver. */
@Entity('approval_decisions')
@Index('uq_approval_decisions_approver', ['approvalId', 'approverId'], { unique: true })
export class ApprovalDecisionEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'approval_id', type: 'varchar', length: 64 })
  approvalId!: string;

  @Column({ name: 'approver_id', type: 'varchar', length: 64 })
  approverId!: string;

  @Column({ name: 'approver_role', type: 'varchar', length: 32 })
  approverRole!: string;

  @Column({ type: 'varchar', length: 8 })
  decision!: 'approve' | 'deny';

  @Column({ type: 'varchar', length: 1000, nullable: true })
  comment!: string | null;

  @Column({ name: 'decided_at', ...dateTime3() })
  decidedAt!: Date;
}
