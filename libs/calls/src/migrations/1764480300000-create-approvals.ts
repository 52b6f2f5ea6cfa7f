import { autoIncrementIdColumn } from '@toolgate/database';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateApprovals1764480300000 implements MigrationInterface {
  name = 'CreateApprovals1764480300000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'tool_calls',
        columns: [
          { name: 'call_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'tenant_id', type: 'varchar', length: '64' },
          { name: 'agent_type', type: 'varchar', length: '64', isNullable: true },
          { name: 'tool', type: 'varchar', length: '64' },
          { name: 'implementation', type: 'varchar', length: '64' },
          { name: 'session_id', type: 'varchar', length: '128' },
          { name: 'idempotency_identity', type: 'varchar', length: '64', isNullable: true },
          { name: 'principal', type: 'json' },
          { name: 'locale', type: 'varchar', length: '8' },
          { name: 'status', type: 'varchar', length: '20' },
          { name: 'input', type: 'json', isNullable: true },
          { name: 'input_digest', type: 'varchar', length: '64', isNullable: true },
          { name: 'timeout_ms', type: 'int' },
          { name: 'approval_mode', type: 'varchar', length: '8' },
          { name: 'binding_version', type: 'int', isNullable: true },
          { name: 'approval_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'envelope', type: 'json', isNullable: true },
          { name: 'instance_id', type: 'varchar', length: '128', isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'updated_at', type: 'datetime', precision: 3 },
        ],
        indices: [
          { name: 'idx_tool_calls_tenant_status', columnNames: ['tenant_id', 'status'] },
          { name: 'idx_tool_calls_status_updated', columnNames: ['status', 'updated_at'] },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'approvals',
        columns: [
          { name: 'id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'call_id', type: 'varchar', length: '64' },
          { name: 'tenant_id', type: 'varchar', length: '64' },
          { name: 'agent_type', type: 'varchar', length: '64', isNullable: true },
          { name: 'tool', type: 'varchar', length: '64' },
          { name: 'implementation', type: 'varchar', length: '64' },
          { name: 'risk_level', type: 'varchar', length: '2' },
          { name: 'session_id', type: 'varchar', length: '128' },
          { name: 'input_digest', type: 'varchar', length: '64' },
          { name: 'input_redacted', type: 'json', isNullable: true },
          { name: 'prompt', type: 'varchar', length: '2000' },
          { name: 'requested_by', type: 'varchar', length: '64' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'mode', type: 'varchar', length: '8' },
          { name: 'grant_key', type: 'varchar', length: '200' },
          { name: 'required', type: 'int' },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'expires_at', type: 'datetime', precision: 3 },
          { name: 'decided_at', type: 'datetime', precision: 3, isNullable: true },
        ],
        indices: [
          { name: 'idx_approvals_tenant_status', columnNames: ['tenant_id', 'status', 'created_at'] },
          { name: 'idx_approvals_call', columnNames: ['call_id'] },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'approval_decisions',
        columns: [
          autoIncrementIdColumn(runner),
          { name: 'approval_id', type: 'varchar', length: '64' },
          { name: 'approver_id', type: 'varchar', length: '64' },
          { name: 'approver_role', type: 'varchar', length: '32' },
          { name: 'decision', type: 'varchar', length: '8' },
          { name: 'comment', type: 'varchar', length: '1000', isNullable: true },
          { name: 'decided_at', type: 'datetime', precision: 3 },
        ],
        indices: [
          {
            name: 'uq_approval_decisions_approver',
            columnNames: ['approval_id', 'approver_id'],
            isUnique: true,
          },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'approval_grants',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'session_id', type: 'varchar', length: '128', isPrimary: true },
          { name: 'tool', type: 'varchar', length: '64', isPrimary: true },
          { name: 'grant_key', type: 'varchar', length: '200', isPrimary: true },
          { name: 'approval_id', type: 'varchar', length: '64' },
          { name: 'expires_at', type: 'datetime', precision: 3 },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'idempotency_records',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'idem_key', type: 'varchar', length: '200', isPrimary: true },
          { name: 'input_digest', type: 'varchar', length: '64' },
          { name: 'call_id', type: 'varchar', length: '64' },
          { name: 'identity', type: 'varchar', length: '64' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'http_status', type: 'int', isNullable: true },
          { name: 'envelope', type: 'json', isNullable: true },
          { name: 'owner_instance', type: 'varchar', length: '128' },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'expires_at', type: 'datetime', precision: 3 },
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const t of [
      'idempotency_records',
      'approval_grants',
      'approval_decisions',
      'approvals',
      'tool_calls',
    ])
      await runner.dropTable(t);
  }
}
