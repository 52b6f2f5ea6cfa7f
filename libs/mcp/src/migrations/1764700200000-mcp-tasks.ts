import { useBinaryCollation } from '@toolgate/database';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * MCP tasks (issue 11): one row per task-augmented `tools/call`, so that any gateway answers
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`. The task id is the call id; a
 * parked call's state is read from `tool_calls`, a call that ended without a record (L0, refused
 * before the audit) keeps its answer here.
 */
export class McpTasks1764700200000 implements MigrationInterface {
  name = 'McpTasks1764700200000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'mcp_tasks',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'task_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'principal_id', type: 'varchar', length: '64' },
          { name: 'agent_type', type: 'varchar', length: '64' },
          { name: 'tool', type: 'varchar', length: '64' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'result', type: 'json', isNullable: true },
          { name: 'ttl_ms', type: 'bigint' },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'updated_at', type: 'datetime', precision: 3 },
          { name: 'expires_at', type: 'datetime', precision: 3 },
        ],
        // tasks/list: the tasks of one key at one agent type, newest (highest UUIDv7) first.
        indices: [
          {
            name: 'idx_mcp_tasks_owner',
            columnNames: ['tenant_id', 'principal_id', 'agent_type', 'task_id'],
          },
          { name: 'idx_mcp_tasks_expires', columnNames: ['expires_at'] },
        ],
      }),
    );
    await useBinaryCollation(runner, 'mcp_tasks', ['tenant_id', 'task_id', 'principal_id']);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('mcp_tasks');
  }
}
