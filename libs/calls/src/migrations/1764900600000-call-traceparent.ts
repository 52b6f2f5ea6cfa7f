import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A parked call remembers the trace it was parked in (issue 13, ADR 019): when a person approves
 * it, possibly hours later and on another gateway, the approval wait and the resumed call join
 * that trace instead of starting an unrelated one.
 */
export class CallTraceparent1764900600000 implements MigrationInterface {
  name = 'CallTraceparent1764900600000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn(
      'tool_calls',
      new TableColumn({ name: 'traceparent', type: 'varchar', length: '64', isNullable: true }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('tool_calls', 'traceparent');
  }
}
