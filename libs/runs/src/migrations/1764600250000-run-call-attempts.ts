import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Which attempt of a run's tool call is the current one (1 for every existing row). A call re-run
 * after a takeover is a new governed call in the audit trail (`<callId>.r<attempt>`): the trail
 * holds one `started` per call id.
 */
export class RunCallAttempts1764600250000 implements MigrationInterface {
  name = 'RunCallAttempts1764600250000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn(
      'run_tool_calls',
      new TableColumn({ name: 'attempt', type: 'int', isNullable: false, default: 1 }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('run_tool_calls', 'attempt');
  }
}
