import { isMysql, useBinaryCollation } from '@toolgate/database';
import { Table, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';

/**
 * Agent runs (issue 10): runs, their steps (model turns), the tool calls of each step and the
 * events of each run, all keyed by tenant first. Identifiers compare byte for byte on MariaDB.
 */
export class CreateRuns1764600200000 implements MigrationInterface {
  name = 'CreateRuns1764600200000';

  async up(runner: QueryRunner): Promise<void> {
    // Questions and answers may be long (32 000 characters of input): MEDIUMTEXT on MariaDB.
    const longText = (name: string, isNullable = false): TableColumnOptions => ({
      name,
      type: isMysql(runner.connection) ? 'mediumtext' : 'text',
      isNullable,
    });
    const ids: TableColumnOptions[] = [
      { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
      { name: 'run_id', type: 'varchar', length: '64', isPrimary: true },
    ];
    const at = (name: string, isNullable = false): TableColumnOptions => ({
      name,
      type: 'datetime',
      precision: 3,
      isNullable,
    });

    await runner.createTable(
      new Table({
        name: 'agent_runs',
        columns: [
          ...ids,
          { name: 'session_id', type: 'varchar', length: '128' },
          { name: 'parent_run_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'agent_type', type: 'varchar', length: '64' },
          { name: 'principal', type: 'json' },
          { name: 'principal_id', type: 'varchar', length: '64' },
          { name: 'locale', type: 'varchar', length: '8' },
          { name: 'model', type: 'varchar', length: '200' },
          { name: 'status', type: 'varchar', length: '20' },
          longText('input'),
          longText('output', true),
          { name: 'error', type: 'json', isNullable: true },
          { name: 'steps', type: 'int' },
          { name: 'input_tokens', type: 'int' },
          { name: 'output_tokens', type: 'int' },
          { name: 'lease_owner', type: 'varchar', length: '128', isNullable: true },
          at('lease_until', true),
          at('deadline_at'),
          at('created_at'),
          at('updated_at'),
          at('finished_at', true),
        ],
        indices: [
          { name: 'idx_agent_runs_tenant_created', columnNames: ['tenant_id', 'created_at'] },
          {
            name: 'idx_agent_runs_tenant_principal',
            columnNames: ['tenant_id', 'principal_id', 'created_at'],
          },
          { name: 'idx_agent_runs_tenant_session', columnNames: ['tenant_id', 'session_id'] },
          { name: 'idx_agent_runs_status_lease', columnNames: ['status', 'lease_until'] },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'run_steps',
        columns: [
          ...ids,
          { name: 'step_index', type: 'int', isPrimary: true },
          longText('text', true),
          { name: 'tool_calls', type: 'json' },
          { name: 'input_tokens', type: 'int' },
          { name: 'output_tokens', type: 'int' },
          at('started_at'),
          at('finished_at', true),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'run_tool_calls',
        columns: [
          ...ids,
          { name: 'step_index', type: 'int', isPrimary: true },
          { name: 'call_index', type: 'int', isPrimary: true },
          { name: 'call_id', type: 'varchar', length: '64' },
          { name: 'tool', type: 'varchar', length: '64' },
          { name: 'input', type: 'json', isNullable: true },
          { name: 'status', type: 'varchar', length: '20' },
          { name: 'approval_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'result', type: 'json', isNullable: true },
          longText('model_text', true),
          at('updated_at'),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'run_events',
        columns: [
          ...ids,
          { name: 'seq', type: 'int', isPrimary: true },
          { name: 'type', type: 'varchar', length: '32' },
          { name: 'data', type: 'json' },
          at('at'),
        ],
      }),
    );
    await useBinaryCollation(runner, 'agent_runs', [
      'tenant_id',
      'run_id',
      'session_id',
      'parent_run_id',
      'principal_id',
    ]);
    await useBinaryCollation(runner, 'run_steps', ['tenant_id', 'run_id']);
    await useBinaryCollation(runner, 'run_tool_calls', ['tenant_id', 'run_id', 'call_id', 'approval_id']);
    await useBinaryCollation(runner, 'run_events', ['tenant_id', 'run_id']);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['run_events', 'run_tool_calls', 'run_steps', 'agent_runs'])
      await runner.dropTable(table);
  }
}
