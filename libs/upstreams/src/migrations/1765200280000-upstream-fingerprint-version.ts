import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The fingerprint scheme of each pinned definition (ADR 016, amendment: call plans are pinned).
 * Existing rows were pinned with scheme 1. An MCP tool has no call plan, so its fingerprint is the
 * same under scheme 2 and its rows are marked so; OpenAPI rows stay at 1 until their first refresh.
 */
export class UpstreamFingerprintVersion1765200280000 implements MigrationInterface {
  name = 'UpstreamFingerprintVersion1765200280000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn(
      'upstream_tools',
      new TableColumn({ name: 'fingerprint_version', type: 'int', default: 1 }),
    );
    await runner.query(
      `UPDATE upstream_tools SET fingerprint_version = 2
        WHERE server_id IN (SELECT id FROM upstream_servers WHERE kind = 'mcp')`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('upstream_tools', 'fingerprint_version');
  }
}
