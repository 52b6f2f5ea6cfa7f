import { useBinaryCollation } from '@toolgate/database';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 22: what the last import of each tenant's file left in the database, so that a changed
 * file is re-imported only when nobody changed the tenant through the console or the API since
 * (ADR 029). Tenants imported before have no row; their bindings' history stands in.
 */
export class TenantFileImports1765300100000 implements MigrationInterface {
  name = 'TenantFileImports1765300100000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'tenant_file_imports',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'file_hash', type: 'varchar', length: '64' },
          { name: 'state_hash', type: 'varchar', length: '64' },
          { name: 'imported_at', type: 'datetime', precision: 3 },
        ],
      }),
    );
    // Tenant ids compare byte for byte on MariaDB too (ADR 006).
    await useBinaryCollation(runner, 'tenant_file_imports', ['tenant_id']);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('tenant_file_imports');
  }
}
