import type { AgentRunSettingsView } from '@toolgate/contract';
import { dateTime3, jsonColumn } from '@toolgate/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BindingTool } from '../config/tenant-file.schema.js';

/** The tools one agent type of one tenant may use; `version` grows with every change. */
@Entity('agent_bindings')
export class AgentBindingEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ name: 'agent_type', type: 'varchar', length: 64 })
  agentType!: string;

  @Column({ type: 'varchar', length: 500, default: '' })
  description!: string;

  @Column({ type: 'int' })
  version!: number;

  @Column(jsonColumn())
  tools!: BindingTool[];

  /** How its runs go; null on rows saved before agent types had run settings (the defaults). */
  @Column(jsonColumn({ nullable: true }))
  run!: AgentRunSettingsView | null;

  @Column({ name: 'updated_at', ...dateTime3() })
  updatedAt!: Date;

  @Column({ name: 'updated_by', type: 'varchar', length: 64 })
  updatedBy!: string;
}
