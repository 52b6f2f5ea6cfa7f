import { useBinaryCollation } from '@toolgate/database';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Outside tool sources of a tenant and the tools imported from them, pinned (issue 11). */
export class CreateUpstreams1764700300000 implements MigrationInterface {
  name = 'CreateUpstreams1764700300000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'upstream_servers',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'tenant_id', type: 'varchar', length: '64' },
          { name: 'name', type: 'varchar', length: '32' },
          { name: 'kind', type: 'varchar', length: '16' },
          { name: 'url', type: 'varchar', length: '2000' },
          { name: 'auth_header', type: 'varchar', length: '100', isNullable: true },
          { name: 'auth_env', type: 'varchar', length: '128', isNullable: true },
          { name: 'timeout_ms', type: 'int' },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'updated_at', type: 'datetime', precision: 3 },
        ],
        indices: [{ name: 'uq_upstream_servers_name', columnNames: ['tenant_id', 'name'], isUnique: true }],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'upstream_tools',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'toolgate_name', type: 'varchar', length: '64', isPrimary: true },
          { name: 'server_id', type: 'varchar', length: '36' },
          { name: 'upstream_name', type: 'varchar', length: '128' },
          { name: 'risk_level', type: 'varchar', length: '2' },
          { name: 'data_domains', type: 'json' },
          { name: 'timeout_ms', type: 'int', isNullable: true },
          { name: 'pinned_definition', type: 'json' },
          { name: 'pinned_fingerprint', type: 'varchar', length: '64' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'pending_definition', type: 'json', isNullable: true },
          { name: 'pending_fingerprint', type: 'varchar', length: '64', isNullable: true },
          { name: 'reviewed_by', type: 'varchar', length: '64', isNullable: true },
          { name: 'reviewed_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'updated_at', type: 'datetime', precision: 3 },
        ],
        indices: [
          // One import per upstream tool of a server.
          {
            name: 'uq_upstream_tools_source',
            columnNames: ['tenant_id', 'server_id', 'upstream_name'],
            isUnique: true,
          },
        ],
      }),
    );
    await useBinaryCollation(runner, 'upstream_servers', ['id', 'tenant_id', 'name']);
    await useBinaryCollation(runner, 'upstream_tools', [
      'tenant_id',
      'toolgate_name',
      'server_id',
      'upstream_name',
    ]);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('upstream_tools');
    await runner.dropTable('upstream_servers');
  }
}
