import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateGatewayInstances1764479900000 implements MigrationInterface {
  name = 'CreateGatewayInstances1764479900000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'gateway_instances',
        columns: [
          { name: 'instance_id', type: 'varchar', length: '128', isPrimary: true },
          { name: 'boot_id', type: 'varchar', length: '64' },
          { name: 'started_at', type: 'datetime', precision: 3 },
          { name: 'heartbeat_at', type: 'datetime', precision: 3 },
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('gateway_instances');
  }
}
