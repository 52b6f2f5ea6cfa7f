import { isMysql, useBinaryCollation } from '@toolgate/database';
import { Table, TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Call identity per tenant (issue "Trust first"): call records keyed by (tenant, call id); `once`
 * grants bound to the principal as well as the session; the approval remembers a failed prompt;
 * identifiers compare byte for byte on MySQL/MariaDB.
 *
 * Grants are short-lived (at most an approval's expiry) and are dropped rather than migrated: a
 * session asks once more, which is the safe direction.
 */
export class CallIdentity1764500300000 implements MigrationInterface {
  name = 'CallIdentity1764500300000';

  async up(runner: QueryRunner): Promise<void> {
    await useBinaryCollation(runner, 'tool_calls', [
      'call_id',
      'tenant_id',
      'session_id',
      'idempotency_identity',
      'approval_id',
    ]);
    await setPrimaryKey(runner, 'tool_calls', ['tenant_id', 'call_id']);

    await runner.addColumn(
      'approvals',
      new TableColumn({ name: 'prompt_error', type: 'varchar', length: '500', isNullable: true }),
    );
    await useBinaryCollation(runner, 'approvals', [
      'id',
      'call_id',
      'tenant_id',
      'session_id',
      'grant_key',
      'requested_by',
    ]);
    await useBinaryCollation(runner, 'approval_decisions', ['approval_id', 'approver_id']);
    await useBinaryCollation(runner, 'idempotency_records', ['tenant_id', 'idem_key', 'call_id', 'identity']);

    await runner.dropTable('approval_grants');
    await runner.createTable(
      new Table({
        name: 'approval_grants',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'principal_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'session_id', type: 'varchar', length: '128', isPrimary: true },
          { name: 'tool', type: 'varchar', length: '64', isPrimary: true },
          { name: 'grant_key', type: 'varchar', length: '200', isPrimary: true },
          { name: 'approval_id', type: 'varchar', length: '64' },
          { name: 'expires_at', type: 'datetime', precision: 3 },
        ],
      }),
    );
    await useBinaryCollation(runner, 'approval_grants', [
      'tenant_id',
      'principal_id',
      'session_id',
      'grant_key',
      'approval_id',
    ]);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('approvals', 'prompt_error');
    await setPrimaryKey(runner, 'tool_calls', ['call_id']);
  }
}

/** Replaces a table's primary key (SQLite rebuilds the table; TypeORM's update is a no-op there). */
async function setPrimaryKey(runner: QueryRunner, name: string, columns: string[]): Promise<void> {
  const table = (await runner.getTable(name))!;
  if (isMysql(runner.connection)) {
    const primary = table.columns
      .filter((c) => columns.includes(c.name))
      .map((c) => Object.assign(c.clone(), { isPrimary: true }));
    await runner.updatePrimaryKeys(table, primary);
    return;
  }
  const changed = table.clone();
  for (const c of changed.columns) c.isPrimary = columns.includes(c.name);
  await (runner as unknown as { recreateTable(a: Table, b: Table): Promise<void> }).recreateTable(
    changed,
    table,
  );
}
