import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A parked call keeps, beside its raw input, the redacted copy the trail stores; when the call
 * ends, the raw input gives way to it (issue 23, ADR 036: raw personal data only while a call may
 * still run). Calls that ended before this migration keep what they stored.
 */
export class CallInputRedacted1765636000000 implements MigrationInterface {
  name = 'CallInputRedacted1765636000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn(
      'tool_calls',
      new TableColumn({ name: 'input_redacted', type: 'json', isNullable: true }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('tool_calls', 'input_redacted');
  }
}
