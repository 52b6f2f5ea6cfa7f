import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A key's runs that have not ended, counted at every run start (`quotas.runsInFlightPerKey`): by
 * tenant, principal and status, so the count reads the key's unfinished runs only, not its history.
 */
export class RunsInFlightIndex1765200000000 implements MigrationInterface {
  name = 'RunsInFlightIndex1765200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createIndex(
      'agent_runs',
      new TableIndex({
        name: 'idx_agent_runs_principal_status',
        columnNames: ['tenant_id', 'principal_id', 'status'],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropIndex('agent_runs', 'idx_agent_runs_principal_status');
  }
}
