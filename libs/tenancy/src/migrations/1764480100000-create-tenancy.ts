import { autoIncrementIdColumn } from '@toolgate/database';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateTenancy1764480100000 implements MigrationInterface {
  name = 'CreateTenancy1764480100000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'tenants',
        columns: [
          { name: 'id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'locale', type: 'varchar', length: '8', isNullable: true },
          { name: 'demo', type: 'boolean', default: false },
          { name: 'connectors', type: 'json' },
          { name: 'settings', type: 'json' },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'updated_at', type: 'datetime', precision: 3 },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'agent_bindings',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'agent_type', type: 'varchar', length: '64', isPrimary: true },
          { name: 'description', type: 'varchar', length: '500', default: "''" },
          { name: 'version', type: 'int' },
          { name: 'tools', type: 'json' },
          { name: 'updated_at', type: 'datetime', precision: 3 },
          { name: 'updated_by', type: 'varchar', length: '64' },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'binding_history',
        columns: [
          autoIncrementIdColumn(runner),
          { name: 'tenant_id', type: 'varchar', length: '64' },
          { name: 'agent_type', type: 'varchar', length: '64' },
          { name: 'version', type: 'int' },
          { name: 'tools', type: 'json' },
          { name: 'kind', type: 'varchar', length: '16' },
          { name: 'changed_by', type: 'varchar', length: '64' },
          { name: 'changed_at', type: 'datetime', precision: 3 },
        ],
        indices: [
          {
            name: 'uq_binding_history_version',
            columnNames: ['tenant_id', 'agent_type', 'version'],
            isUnique: true,
          },
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('binding_history');
    await runner.dropTable('agent_bindings');
    await runner.dropTable('tenants');
  }
}
