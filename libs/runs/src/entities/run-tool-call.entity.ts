import { dateTime3, inFlightJson, inFlightText, jsonColumn } from '@toolgate/database';
import type { CallStatus } from '@toolgate/contract';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One tool call of a step and what became of it. `running` from the moment the step is stored
 * until the call has an outcome: a run taken over with a call still `running` re-runs it under the
 * same idempotency key upstream (see `attempt`).
 */
@Entity('run_tool_calls')
export class RunToolCallEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @PrimaryColumn({ name: 'run_id', type: 'varchar', length: 64 })
  runId!: string;

  @PrimaryColumn({ name: 'step_index', type: 'int' })
  stepIndex!: number;

  @PrimaryColumn({ name: 'call_index', type: 'int' })
  callIndex!: number;

  /** Platform-minted from (run, step, index); also the call's idempotency identity. */
  @Column({ name: 'call_id', type: 'varchar', length: 64 })
  callId!: string;

  /**
   * The governed call now standing for this one: 1 runs as `callId`; a re-run of a call an earlier
   * attempt started (a takeover) runs as `<callId>.r<attempt>` (`attemptCallId`), since the audit
   * trail holds one start per call id. Every attempt sends the upstream `callId`'s idempotency key.
   */
  @Column({ type: 'int', default: 1 })
  attempt!: number;

  @Column({ type: 'varchar', length: 64 })
  tool!: string;

  /** The parsed arguments; null when the model sent text that is not a JSON object. */
  @Column(jsonColumn({ nullable: true, transformer: inFlightJson }))
  input!: unknown;

  @Column({ type: 'varchar', length: 20 })
  status!: CallStatus;

  @Column({ name: 'approval_id', type: 'varchar', length: 64, nullable: true })
  approvalId!: string | null;

  /** The envelope the call answered. */
  @Column(jsonColumn({ nullable: true, transformer: inFlightJson }))
  result!: Record<string, any> | null;

  /** What the model is shown for this call (the toModelOutput projection or the envelope). */
  @Column({ name: 'model_text', type: 'text', nullable: true, transformer: inFlightText })
  modelText!: string | null;

  @Column({ name: 'updated_at', ...dateTime3() })
  updatedAt!: Date;
}
