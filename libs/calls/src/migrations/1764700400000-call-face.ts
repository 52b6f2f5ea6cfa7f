import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Call records remember how the call came in (issue 11: audit rows, metrics and quotas say the
 * face — `rest`, `mcp`, `run`): a call approved later runs, and is audited, with the same face.
 */
export class CallFace1764700400000 implements MigrationInterface {
  name = 'CallFace1764700400000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn(
      'tool_calls',
      new TableColumn({ name: 'face', type: 'varchar', length: '8', isNullable: true }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('tool_calls', 'face');
  }
}
