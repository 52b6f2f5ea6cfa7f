import { useBinaryCollation } from '@toolgate/database';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/** An index whose first column is the tenant, then `columns`, then the call's time and id. */
const byTenant = (name: string, ...columns: string[]) => ({
  name: `idx_audit_calls_${name}`,
  columns: ['tenant_id', ...columns, 'requested_at', 'call_id'],
});

/** The filters of `GET /v1/audit/calls` that are columns of the call row, one index each. */
const CALL_INDICES = [
  byTenant('time'),
  byTenant('agent', 'agent_type'),
  byTenant('tool', 'tool'),
  byTenant('target', 'target'),
  byTenant('face', 'face'),
  byTenant('risk', 'risk_level'),
  byTenant('state', 'state'),
  byTenant('status', 'status'),
  byTenant('code', 'code'),
  byTenant('run', 'run_id'),
  byTenant('session', 'session_id'),
];

/**
 * The call projection of the audit trail (ADR 033): `audit_calls` (one row per call),
 * `audit_call_terms` (the people and declared input values a call is found by), `audit_principals`
 * (names of keys and people as the trail states them) and `audit_call_cursors` (how far each
 * tenant's chain has been projected). Everything here can be dropped and rebuilt from the chain.
 */
export class AuditCalls1765400300000 implements MigrationInterface {
  name = 'AuditCalls1765400300000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'audit_calls',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'call_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'agent_type', type: 'varchar', length: '64', isNullable: true },
          { name: 'tool', type: 'varchar', length: '64', isNullable: true },
          { name: 'implementation', type: 'varchar', length: '64', isNullable: true },
          { name: 'risk_level', type: 'varchar', length: '2', isNullable: true },
          { name: 'face', type: 'varchar', length: '8', isNullable: true },
          { name: 'target', type: 'varchar', length: '255', isNullable: true },
          { name: 'input', type: 'json', isNullable: true },
          { name: 'state', type: 'varchar', length: '24' },
          { name: 'status', type: 'varchar', length: '8', isNullable: true },
          { name: 'code', type: 'varchar', length: '64', isNullable: true },
          { name: 'requester_type', type: 'varchar', length: '16', isNullable: true },
          { name: 'requester_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'approvers', type: 'json', isNullable: true },
          { name: 'requested_at', type: 'datetime', precision: 3 },
          { name: 'started_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'finished_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'duration_ms', type: 'int', isNullable: true },
          { name: 'run_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'session_id', type: 'varchar', length: '128', isNullable: true },
          { name: 'events', type: 'int' },
          { name: 'first_seq', type: 'bigint' },
          { name: 'last_seq', type: 'bigint' },
        ],
        indices: CALL_INDICES.map((i) => ({ name: i.name, columnNames: i.columns })),
      }),
    );
    await runner.createTable(
      new Table({
        name: 'audit_call_terms',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'call_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'term', type: 'varchar', length: '300', isPrimary: true },
          { name: 'requested_at', type: 'datetime', precision: 3 },
        ],
        indices: [
          {
            name: 'idx_audit_call_terms_term',
            columnNames: ['tenant_id', 'term', 'requested_at', 'call_id'],
          },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'audit_principals',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'principal_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'principal_type', type: 'varchar', length: '16' },
          { name: 'name', type: 'varchar', length: '200' },
          // The name folded to lower case: what a search by name compares.
          { name: 'name_key', type: 'varchar', length: '200' },
          { name: 'seq', type: 'bigint' },
        ],
        indices: [{ name: 'idx_audit_principals_name', columnNames: ['tenant_id', 'name_key'] }],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'audit_call_cursors',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'seq', type: 'bigint' },
        ],
      }),
    );
    await useBinaryCollation(runner, 'audit_calls', [
      'tenant_id',
      'call_id',
      'requester_id',
      'run_id',
      'session_id',
    ]);
    await useBinaryCollation(runner, 'audit_call_terms', ['tenant_id', 'call_id', 'term']);
    await useBinaryCollation(runner, 'audit_principals', ['tenant_id', 'principal_id', 'name_key']);
    await useBinaryCollation(runner, 'audit_call_cursors', ['tenant_id']);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const t of ['audit_call_cursors', 'audit_principals', 'audit_call_terms', 'audit_calls'])
      await runner.dropTable(t);
  }
}
