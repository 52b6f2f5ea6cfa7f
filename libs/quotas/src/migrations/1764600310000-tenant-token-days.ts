import { useBinaryCollation } from '@toolgate/database';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Tokens per tenant per UTC day (issue 10): the counter of the tenant's `tokensPerDay` quota. */
export class TenantTokenDays1764600310000 implements MigrationInterface {
  name = 'TenantTokenDays1764600310000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'tenant_token_days',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'day', type: 'varchar', length: '10', isPrimary: true },
          { name: 'tokens', type: 'bigint' },
          { name: 'updated_at', type: 'datetime', precision: 3 },
        ],
        // The overview reads one day across tenants.
        indices: [{ name: 'idx_tenant_token_days_day', columnNames: ['day'] }],
      }),
    );
    await useBinaryCollation(runner, 'tenant_token_days', ['tenant_id']);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('tenant_token_days');
  }
}
