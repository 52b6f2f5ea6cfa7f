import { dateTime3 } from '@toolgate/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Numbers past 2^31 arrive as text from mysql2; a day's tokens stay well inside 2^53. */
const bigintAsNumber = { to: (v: number) => v, from: (v: unknown) => Number(v) };

/** The model tokens a tenant's runs spent in one UTC day, shared by every gateway. */
@Entity('tenant_token_days')
export class TenantTokenDayEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  /** `YYYY-MM-DD`, UTC. */
  @PrimaryColumn({ type: 'varchar', length: 10 })
  day!: string;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  tokens!: number;

  @Column({ name: 'updated_at', ...dateTime3() })
  updatedAt!: Date;
}
