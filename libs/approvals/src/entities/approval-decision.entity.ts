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

  /** `api_key` or `user` (a signed-in person); null on decisions made before people could sign in. */
  @Column({ name: 'approver_type', type: 'varchar', length: 16, nullable: true })
  approverType!: string | null;

  @Column({ name: 'approver_name', type: 'varchar', length: 200, nullable: true })
  approverName!: string | null;

  @Column({ name: 'approver_email', type: 'varchar', length: 320, nullable: true })
  approverEmail!: string | null;

  /** The person behind the decision: a signed-in person's id, or the owner of the deciding key. */
  @Column({ name: 'approver_person', type: 'varchar', length: 300, nullable: true })
  approverPerson!: string | null;

  @Column({ type: 'varchar', length: 8 })
  decision!: 'approve' | 'deny';

  @Column({ type: 'varchar', length: 1000, nullable: true })
  comment!: string | null;

  @Column({ name: 'decided_at', ...dateTime3() })
  decidedAt!: Date;
}
