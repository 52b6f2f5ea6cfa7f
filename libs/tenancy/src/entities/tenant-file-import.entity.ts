import { dateTime3 } from '@toolgate/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The last time a tenant's file (`config/tenants/<id>.yaml`) was imported: the file's SHA-256 and
 * the SHA-256 of the tenant as that import left it in the database (tenantStateHash). A tenant whose
 * state still has that hash was not changed through the console or the API since, so a newer file
 * may replace it (ADR 029).
 */
@Entity('tenant_file_imports')
export class TenantFileImportEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ name: 'file_hash', type: 'varchar', length: 64 })
  fileHash!: string;

  @Column({ name: 'state_hash', type: 'varchar', length: 64 })
  stateHash!: string;

  @Column({ name: 'imported_at', ...dateTime3() })
  importedAt!: Date;
}
