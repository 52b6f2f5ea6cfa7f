import { dateTime3, inFlightJson, inFlightText, jsonColumn } from '@toolgate/database';
import type { ModelToolCall } from '@toolgate/models';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One model turn of a run, stored before any of its tool calls runs. */
@Entity('run_steps')
export class RunStepEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ name: 'run_id', type: 'varchar', length: 64 })
  runId!: string;

  @PrimaryColumn({ name: 'step_index', type: 'int' })
  stepIndex!: number;

  @Column({ type: 'text', nullable: true, transformer: inFlightText })
  text!: string | null;

  /** The tool calls as the model asked for them (raw argument text included). */
  @Column(jsonColumn({ name: 'tool_calls', transformer: inFlightJson }))
  toolCalls!: ModelToolCall[];

  @Column({ name: 'input_tokens', type: 'int' })
  inputTokens!: number;

  @Column({ name: 'output_tokens', type: 'int' })
  outputTokens!: number;

  @Column({ name: 'started_at', ...dateTime3() })
  startedAt!: Date;

  @Column({ name: 'finished_at', ...dateTime3({ nullable: true }) })
  finishedAt!: Date | null;
}
