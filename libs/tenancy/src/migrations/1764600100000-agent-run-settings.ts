import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Agent types get run settings (issue "Agents that run"): model, instructions, limits, sub-agents,
 * one JSON value per agent type. Existing rows keep null, read as the defaults.
 */
export class AgentRunSettings1764600100000 implements MigrationInterface {
  name = 'AgentRunSettings1764600100000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn(
      'agent_bindings',
      new TableColumn({ name: 'run', type: 'json', isNullable: true }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('agent_bindings', 'run');
  }
}
