import { dateTime3, jsonColumn } from '@toolgate/database';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { OutputSummary } from '../audit-event.js';

/**
 * One row of the append-only trail. The application inserts rows and never updates or deletes
 * them; `hash` chains each row to the one before it in its tenant's chain.
 */
@Entity('audit_events')
@Index('uq_audit_tenant_seq', ['tenantId', 'seq'], { unique: true })
@Index('idx_audit_tenant_time', ['tenantId', 'occurredAt'])
export class AuditEventEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ type: 'bigint' })
  seq!: string;

  @Column({ type: 'varchar', length: 32 })
  event!: string;

  @Index('idx_audit_call')
  @Column({ name: 'call_id', type: 'varchar', length: 64, nullable: true })
  callId!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  tool!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  implementation!: string | null;

  @Column({ name: 'risk_level', type: 'varchar', length: 2, nullable: true })
  riskLevel!: string | null;

  @Column({ name: 'agent_type', type: 'varchar', length: 64, nullable: true })
  agentType!: string | null;

  @Column({ name: 'session_id', type: 'varchar', length: 128, nullable: true })
  sessionId!: string | null;

  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType!: string;

  @Column({ name: 'actor_id', type: 'varchar', length: 64 })
  actorId!: string;

  @Column({ name: 'initiator_id', type: 'varchar', length: 64, nullable: true })
  initiatorId!: string | null;

  @Column({ name: 'approver_id', type: 'varchar', length: 64, nullable: true })
  approverId!: string | null;

  @Column({ name: 'binding_version', type: 'int', nullable: true })
  bindingVersion!: number | null;

  @Column({ name: 'definition_hash', type: 'varchar', length: 64, nullable: true })
  definitionHash!: string | null;

  @Column(jsonColumn({ nullable: true }))
  input!: unknown;

  @Column({ name: 'output_summary', ...jsonColumn({ nullable: true }) })
  outputSummary!: OutputSummary | null;

  @Column({ type: 'varchar', length: 8, nullable: true })
  status!: 'ok' | 'error' | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  code!: string | null;

  @Column({ name: 'duration_ms', type: 'int', nullable: true })
  durationMs!: number | null;

  @Column(jsonColumn({ nullable: true }))
  details!: Record<string, unknown> | null;

  @Column({ name: 'occurred_at', ...dateTime3() })
  occurredAt!: Date;

  /** Not hashed: which process wrote it, for the reconciler. */
  @Column({ name: 'instance_id', type: 'varchar', length: 128, nullable: true })
  instanceId!: string | null;

  /** Not hashed: makes retried writes idempotent (`<callId>:started`, `<callId>:closed`, ...). */
  @Column({ name: 'dedupe_key', type: 'varchar', length: 200, nullable: true, unique: true })
  dedupeKey!: string | null;

  @Column({ name: 'prev_hash', type: 'varchar', length: 64 })
  prevHash!: string;

  @Column({ type: 'varchar', length: 64 })
  hash!: string;
}
