import { dateTime3, jsonColumn } from '@toolgate/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A tenant. Connector settings keep their ${VAR} placeholders: secrets never land in the database. */
@Entity('tenants')
export class TenantEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 8, nullable: true })
  locale!: string | null;

  @Column({ type: 'boolean', default: false })
  demo!: boolean;

  @Column(jsonColumn())
  connectors!: Record<string, Record<string, any>>;

  /** The tenant file's sections (`TenantSections`): each lib reads its own with its own schema. */
  @Column(jsonColumn())
  settings!: Record<string, any>;

  @Column({ name: 'created_at', ...dateTime3() })
  createdAt!: Date;

  @Column({ name: 'updated_at', ...dateTime3() })
  updatedAt!: Date;
}
