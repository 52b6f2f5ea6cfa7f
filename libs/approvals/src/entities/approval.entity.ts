import { dateTime3, jsonColumn } from '@toolgate/database';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired';

/** A request for a person's decision, bound to the exact action: tool, implementation, input digest. */
@Entity('approvals')
@Index('idx_approvals_tenant_status', ['tenantId', 'status', 'createdAt'])
export class ApprovalEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id!: string;

  @Index('idx_approvals_call')
  @Column({ name: 'call_id', type: 'varchar', length: 64 })
  callId!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ name: 'agent_type', type: 'varchar', length: 64, nullable: true })
  agentType!: string | null;

  @Column({ type: 'varchar', length: 64 })
  tool!: string;

  @Column({ type: 'varchar', length: 64 })
  implementation!: string;

  @Column({ name: 'risk_level', type: 'varchar', length: 2 })
  riskLevel!: string;

  @Column({ name: 'session_id', type: 'varchar', length: 128 })
  sessionId!: string;

  @Column({ name: 'input_digest', type: 'varchar', length: 64 })
  inputDigest!: string;

  /** What the approver sees: the input, redacted like the audit trail. */
  @Column({ name: 'input_redacted', ...jsonColumn({ nullable: true }) })
  inputRedacted!: any;

  @Column({ type: 'varchar', length: 2000 })
  prompt!: string;

  /** Why the tool's own prompt could not be used (it threw, or said nothing); null when it could. */
  @Column({ name: 'prompt_error', type: 'varchar', length: 500, nullable: true })
  promptError!: string | null;

  @Column({ name: 'requested_by', type: 'varchar', length: 64 })
  requestedBy!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: ApprovalStatus;

  /** never | once | always — `once` leaves a grant for the session. */
  @Column({ type: 'varchar', length: 8 })
  mode!: string;

  @Column({ name: 'grant_key', type: 'varchar', length: 200 })
  grantKey!: string;

  /** Distinct approvers needed (2 for L3 when the tenant asks for it). */
  @Column({ type: 'int' })
  required!: number;

  /** Issue 26: only members of this group (tenant `approvals.groups`) decide; null: any approver. */
  @Column({ name: 'approver_group', type: 'varchar', length: 64, nullable: true })
  approverGroup!: string | null;

  @Column({ name: 'created_at', ...dateTime3() })
  createdAt!: Date;

  @Column({ name: 'expires_at', ...dateTime3() })
  expiresAt!: Date;

  @Index('idx_approvals_decided')
  @Column({ name: 'decided_at', ...dateTime3({ nullable: true }) })
  decidedAt!: Date | null;
}
