import { dateTime3, inFlightJson, jsonColumn } from '@toolgate/database';
import type { RunEventType } from '@toolgate/contract';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One event of a run, numbered per run: the SSE id, and what `Last-Event-ID` replays after. */
@Entity('run_events')
export class RunEventEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ name: 'run_id', type: 'varchar', length: 64 })
  runId!: string;

  @PrimaryColumn({ type: 'int' })
  seq!: number;

  @Column({ type: 'varchar', length: 32 })
  type!: RunEventType;

  @Column(jsonColumn({ transformer: inFlightJson }))
  data!: Record<string, unknown>;

  @Column({ ...dateTime3() })
  at!: Date;
}
