import { Column, Entity, PrimaryColumn } from 'typeorm';
import { dateTime3 } from '../column-types.js';

/** A running (or once running) gateway process; its heartbeat tells reconcilers whether it lives. */
@Entity('gateway_instances')
export class GatewayInstanceEntity {
  @PrimaryColumn({ name: 'instance_id', type: 'varchar', length: 128 })
  instanceId!: string;

  @Column({ name: 'boot_id', type: 'varchar', length: 64 })
  bootId!: string;

  @Column({ name: 'started_at', ...dateTime3() })
  startedAt!: Date;

  @Column({ name: 'heartbeat_at', ...dateTime3() })
  heartbeatAt!: Date;
}
