import { dateTime3, inFlightJson, inFlightText, jsonColumn } from '@toolgate/database';
import type { RunStatus } from '@toolgate/contract';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The principal a run acts for, kept so that any gateway can resume it as the same principal. */
export interface StoredRunPrincipal {
  principalType: 'api_key' | 'user' | 'system';
  principalId: string;
  role?: string;
  tenantId?: string | null;
  name?: string;
  agentTypes?: string[] | null;
}

/** One run of an agent: its question, state, answer, usage, and the lease of the gateway driving it. */
@Entity('agent_runs')
@Index('idx_agent_runs_tenant_created', ['tenantId', 'createdAt'])
@Index('idx_agent_runs_tenant_principal', ['tenantId', 'principalId', 'createdAt'])
@Index('idx_agent_runs_principal_status', ['tenantId', 'principalId', 'status'])
@Index('idx_agent_runs_tenant_session', ['tenantId', 'sessionId'])
@Index('idx_agent_runs_status_lease', ['status', 'leaseUntil'])
export class AgentRunEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ name: 'run_id', type: 'varchar', length: 64 })
  runId!: string;

  @Column({ name: 'session_id', type: 'varchar', length: 128 })
  sessionId!: string;

  @Column({ name: 'parent_run_id', type: 'varchar', length: 64, nullable: true })
  parentRunId!: string | null;

  @Column({ name: 'agent_type', type: 'varchar', length: 64 })
  agentType!: string;

  @Column(jsonColumn())
  principal!: StoredRunPrincipal;

  /** The principal's id again, as a column: agent keys list their own runs. */
  @Column({ name: 'principal_id', type: 'varchar', length: 64 })
  principalId!: string;

  @Column({ type: 'varchar', length: 8 })
  locale!: string;

  /** `provider/model`. */
  @Column({ type: 'varchar', length: 200 })
  model!: string;

  @Column({ type: 'varchar', length: 20 })
  status!: RunStatus;

  @Column({ type: 'text', transformer: inFlightText })
  input!: string;

  @Column({ type: 'text', nullable: true, transformer: inFlightText })
  output!: string | null;

  @Column(jsonColumn({ nullable: true, transformer: inFlightJson }))
  error!: Record<string, any> | null;

  @Column({ type: 'int' })
  steps!: number;

  @Column({ name: 'input_tokens', type: 'int' })
  inputTokens!: number;

  @Column({ name: 'output_tokens', type: 'int' })
  outputTokens!: number;

  @Column({ name: 'lease_owner', type: 'varchar', length: 128, nullable: true })
  leaseOwner!: string | null;

  @Column({ name: 'lease_until', ...dateTime3({ nullable: true }) })
  leaseUntil!: Date | null;

  @Column({ name: 'deadline_at', ...dateTime3() })
  deadlineAt!: Date;

  @Column({ name: 'created_at', ...dateTime3() })
  createdAt!: Date;

  @Column({ name: 'updated_at', ...dateTime3() })
  updatedAt!: Date;

  @Column({ name: 'finished_at', ...dateTime3({ nullable: true }) })
  finishedAt!: Date | null;
}
