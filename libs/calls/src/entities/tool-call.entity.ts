import { dateTime3, inFlightJson, jsonColumn } from '@toolgate/database';
import type { CallFace } from '@toolgate/toolkit';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Where a call stands. `queued`: approved and waiting for a gateway to run it. */
export type CallStatus =
  'pending_approval' | 'queued' | 'running' | 'succeeded' | 'failed' | 'denied' | 'expired' | 'interrupted';

/** The principal a call acts for, as stored with the call so an approved call runs for them. */
export interface StoredPrincipal {
  principalType: 'api_key' | 'user' | 'system';
  principalId: string;
  role?: string;
  tenantId?: string | null;
  name?: string;
}

/** The decider of a call as its record keeps it. */
export interface DecidedBy {
  type: 'api_key' | 'user';
  id: string;
  name?: string;
  email?: string;
}

/**
 * The record of one L1+ or parked call: its state and, once there is one, its envelope. Parked
 * calls also keep their validated input, so what runs after approval is exactly what was approved.
 */
@Entity('tool_calls')
@Index('idx_tool_calls_tenant_status', ['tenantId', 'status'])
@Index('idx_tool_calls_status_updated', ['status', 'updatedAt'])
export class ToolCallEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  /** Minted by the platform; unique within the tenant (and in practice everywhere: UUIDv7). */
  @PrimaryColumn({ name: 'call_id', type: 'varchar', length: 64 })
  callId!: string;

  @Column({ name: 'agent_type', type: 'varchar', length: 64, nullable: true })
  agentType!: string | null;

  @Column({ type: 'varchar', length: 64 })
  tool!: string;

  @Column({ type: 'varchar', length: 64 })
  implementation!: string;

  @Column({ name: 'session_id', type: 'varchar', length: 128 })
  sessionId!: string;

  @Column({ name: 'idempotency_identity', type: 'varchar', length: 64, nullable: true })
  idempotencyIdentity!: string | null;

  @Column(jsonColumn())
  principal!: StoredPrincipal;

  @Column({ type: 'varchar', length: 8 })
  locale!: string;

  @Column({ type: 'varchar', length: 20 })
  status!: CallStatus;

  /** Raw while the call may still run (parked, queued, running); its redacted copy once it ended (ADR 036). */
  @Column(jsonColumn({ nullable: true, transformer: inFlightJson }))
  input!: any;

  /** A parked call's input as the trail stores it, moved into `input` when the call ends. */
  @Column({ name: 'input_redacted', ...jsonColumn({ nullable: true }) })
  inputRedacted!: unknown;

  @Column({ name: 'input_digest', type: 'varchar', length: 64, nullable: true })
  inputDigest!: string | null;

  @Column({ name: 'timeout_ms', type: 'int' })
  timeoutMs!: number;

  @Column({ name: 'approval_mode', type: 'varchar', length: 8 })
  approvalMode!: string;

  @Column({ name: 'binding_version', type: 'int', nullable: true })
  bindingVersion!: number | null;

  @Column({ name: 'approval_id', type: 'varchar', length: 64, nullable: true })
  approvalId!: string | null;

  @Column(jsonColumn({ nullable: true }))
  envelope!: Record<string, any> | null;

  /** Who approved or denied the call (the deciding key or person); null until decided. */
  @Column({ name: 'decided_by', ...jsonColumn({ nullable: true }) })
  decidedBy!: DecidedBy | null;

  @Column({ name: 'instance_id', type: 'varchar', length: 128, nullable: true })
  instanceId!: string | null;

  /** How the call came in (`rest`, `mcp`, `run`); null for calls recorded before it was kept. */
  @Column({ type: 'varchar', length: 8, nullable: true })
  face!: CallFace | null;

  /** The W3C traceparent of the span that parked the call; its approval resumes in that trace. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  traceparent!: string | null;

  @Column({ name: 'created_at', ...dateTime3() })
  createdAt!: Date;

  @Column({ name: 'updated_at', ...dateTime3() })
  updatedAt!: Date;
}
