import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Where an upstream processes what it is sent, for the cross-border guard (issue 24, ADR 047). */
export class UpstreamRegion1765640600000 implements MigrationInterface {
  name = 'UpstreamRegion1765640600000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn(
      'upstream_servers',
      new TableColumn({ name: 'region', type: 'varchar', length: '2', isNullable: true }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('upstream_servers', 'region');
  }
}
