import { dateTime3 } from '@toolgate/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Numbers past 2^31 arrive as text from mysql2. */
const bigintAsNumber = { to: (v: number) => v, from: (v: unknown) => Number(v) };

/**
 * How many calls of a tenant's tool sent classified fields to a recipient (PIPL 第55–56条), shared
 * by every gateway; `crossBorder` counts those whose recipient is outside mainland China.
 */
@Entity('processing_counts')
export class ProcessingCountEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ type: 'varchar', length: 128 })
  tool!: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  recipient!: string;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  calls!: number;

  @Column({ name: 'cross_border', type: 'bigint', transformer: bigintAsNumber })
  crossBorder!: number;

  /** When a call was last counted: the counter is kept `countsRetentionDays` after it (ADR 047). */
  @Column({ name: 'last_at', ...dateTime3({ nullable: true }) })
  lastAt!: Date | null;
}
