import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateApiKeys1764480000000 implements MigrationInterface {
  name = 'CreateApiKeys1764480000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          { name: 'id', type: 'varchar', length: '40', isPrimary: true },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'role', type: 'varchar', length: '32' },
          { name: 'tenant_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'agent_types', type: 'json', isNullable: true },
          { name: 'key_hash', type: 'varchar', length: '64' },
          { name: 'key_prefix', type: 'varchar', length: '16' },
          { name: 'created_by', type: 'varchar', length: '64' },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'revoked_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'bootstrap', type: 'boolean', default: false },
        ],
        indices: [
          { name: 'uq_api_keys_hash', columnNames: ['key_hash'], isUnique: true },
          { name: 'idx_api_keys_tenant', columnNames: ['tenant_id'] },
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('api_keys');
  }
}
