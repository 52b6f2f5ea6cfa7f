import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Where an OpenAPI upstream's calls go when not where its document says (issue 11). */
export class UpstreamBaseUrl1764700390000 implements MigrationInterface {
  name = 'UpstreamBaseUrl1764700390000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn(
      'upstream_servers',
      new TableColumn({ name: 'base_url', type: 'varchar', length: '2000', isNullable: true }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('upstream_servers', 'base_url');
  }
}
