import { autoIncrementIdColumn } from '@toolgate/database';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateAudit1764480200000 implements MigrationInterface {
  name = 'CreateAudit1764480200000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'audit_events',
        columns: [
          autoIncrementIdColumn(runner),
          { name: 'tenant_id', type: 'varchar', length: '64' },
          { name: 'seq', type: 'bigint' },
          { name: 'event', type: 'varchar', length: '32' },
          { name: 'call_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'tool', type: 'varchar', length: '64', isNullable: true },
          { name: 'implementation', type: 'varchar', length: '64', isNullable: true },
          { name: 'risk_level', type: 'varchar', length: '2', isNullable: true },
          { name: 'agent_type', type: 'varchar', length: '64', isNullable: true },
          { name: 'session_id', type: 'varchar', length: '128', isNullable: true },
          { name: 'actor_type', type: 'varchar', length: '16' },
          { name: 'actor_id', type: 'varchar', length: '64' },
          { name: 'initiator_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'approver_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'binding_version', type: 'int', isNullable: true },
          { name: 'definition_hash', type: 'varchar', length: '64', isNullable: true },
          { name: 'input', type: 'json', isNullable: true },
          { name: 'output_summary', type: 'json', isNullable: true },
          { name: 'status', type: 'varchar', length: '8', isNullable: true },
          { name: 'code', type: 'varchar', length: '64', isNullable: true },
          { name: 'duration_ms', type: 'int', isNullable: true },
          { name: 'details', type: 'json', isNullable: true },
          // DATETIME(3): a plain DATETIME drops the milliseconds the hash covers.
          { name: 'occurred_at', type: 'datetime', precision: 3 },
          { name: 'instance_id', type: 'varchar', length: '128', isNullable: true },
          { name: 'dedupe_key', type: 'varchar', length: '200', isNullable: true, isUnique: true },
          { name: 'prev_hash', type: 'varchar', length: '64' },
          { name: 'hash', type: 'varchar', length: '64' },
        ],
        indices: [
          { name: 'uq_audit_tenant_seq', columnNames: ['tenant_id', 'seq'], isUnique: true },
          { name: 'idx_audit_tenant_time', columnNames: ['tenant_id', 'occurred_at'] },
          { name: 'idx_audit_call', columnNames: ['call_id'] },
          { name: 'idx_audit_tool', columnNames: ['tool'] },
          { name: 'idx_audit_actor', columnNames: ['actor_id'] },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'audit_chain_heads',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'seq', type: 'bigint' },
          { name: 'head_hash', type: 'varchar', length: '64' },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'audit_open_calls',
        columns: [
          { name: 'call_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'tenant_id', type: 'varchar', length: '64' },
          { name: 'tool', type: 'varchar', length: '64', isNullable: true },
          { name: 'instance_id', type: 'varchar', length: '128', isNullable: true },
          { name: 'started_at', type: 'datetime', precision: 3 },
        ],
        indices: [{ name: 'idx_audit_open_calls_instance', columnNames: ['instance_id'] }],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'audit_checkpoints',
        columns: [
          autoIncrementIdColumn(runner),
          { name: 'tenant_id', type: 'varchar', length: '64' },
          { name: 'seq', type: 'bigint' },
          { name: 'head_hash', type: 'varchar', length: '64' },
          { name: 'signed_at', type: 'datetime', precision: 3 },
          { name: 'key_id', type: 'varchar', length: '64' },
          { name: 'signature', type: 'varchar', length: '200' },
        ],
        indices: [{ name: 'idx_audit_checkpoints_tenant', columnNames: ['tenant_id', 'seq'] }],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const t of ['audit_checkpoints', 'audit_open_calls', 'audit_chain_heads', 'audit_events'])
      await runner.dropTable(t);
  }
}
