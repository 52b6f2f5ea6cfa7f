import { dateTime3, jsonColumn } from '@toolgate/database';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { BindingTool } from '../config/tenant-file.schema.js';

/** One saved version of an agent type's bindings: who, when, what changed. */
@Entity('binding_history')
@Index('uq_binding_history_version', ['tenantId', 'agentType', 'version'], { unique: true })
export class BindingHistoryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ name: 'agent_type', type: 'varchar', length: 64 })
  agentType!: string;

  @Column({ type: 'int' })
  version!: number;

  @Column(jsonColumn())
  tools!: BindingTool[];

  /** `import` (from YAML), `update` (admin API), `delete`. */
  @Column({ type: 'varchar', length: 16 })
  kind!: string;

  @Column({ name: 'changed_by', type: 'varchar', length: 64 })
  changedBy!: string;

  @Column({ name: 'changed_at', ...dateTime3() })
  changedAt!: Date;
}
