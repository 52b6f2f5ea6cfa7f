import { dateTime3, inFlightJson, jsonColumn } from '@toolgate/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * `working` until the call's outcome is known to this row: `settled` once the call answered without
 * parking (its `result` is here), `cancelled` by its requester. A parked call stays `working` here;
 * its state is the call record's.
 */
export type McpTaskRowStatus = 'working' | 'settled' | 'cancelled';

/** One task-augmented `tools/call` (migration 1764700200000). */
@Entity('mcp_tasks')
export class McpTaskEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  /** The call id, minted by the platform. */
  @PrimaryColumn({ name: 'task_id', type: 'varchar', length: 64 })
  taskId!: string;

  /** The API key that created the task: the only principal that sees it. */
  @Column({ name: 'principal_id', type: 'varchar', length: 64 })
  principalId!: string;

  @Column({ name: 'agent_type', type: 'varchar', length: 64 })
  agentType!: string;

  @Column({ type: 'varchar', length: 64 })
  tool!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: McpTaskRowStatus;

  /**
   * The CallToolResult of a call that ended without parking: the caller's own answer, kept until
   * `tasks/result` reads it or the task expires, so sealed at rest like other in-flight data (ADR 036).
   */
  @Column(jsonColumn({ nullable: true, transformer: inFlightJson }))
  result!: Record<string, unknown> | null;

  @Column({ name: 'ttl_ms', type: 'bigint' })
  ttlMs!: number | string;

  @Column({ name: 'created_at', ...dateTime3() })
  createdAt!: Date;

  @Column({ name: 'updated_at', ...dateTime3() })
  updatedAt!: Date;

  /** created_at + ttl: past it the task is gone (a sweep deletes it). */
  @Column({ name: 'expires_at', ...dateTime3() })
  expiresAt!: Date;
}
