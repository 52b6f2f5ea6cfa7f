import { isMysql } from '@toolgate/database';
import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const COLUMNS = 'call_id, tenant_id, tool, instance_id, started_at';

/** The table as it is after `primary` becomes its primary key (SQLite cannot alter a primary key). */
function openCallsTable(name: string, primary: readonly string[]): Table {
  return new Table({
    name,
    columns: [
      // First, so that SQLite's primary key index is (tenant_id, call_id) and serves per-tenant reads.
      { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: primary.includes('tenant_id') },
      { name: 'call_id', type: 'varchar', length: '64', isPrimary: primary.includes('call_id') },
      { name: 'tool', type: 'varchar', length: '64', isNullable: true },
      { name: 'instance_id', type: 'varchar', length: '128', isNullable: true },
      { name: 'started_at', type: 'datetime', precision: 3 },
    ],
  });
}

/**
 * `audit_open_calls` keyed by (tenant_id, call_id): call ids are unique per tenant only, and with
 * the old key one tenant's open call made another tenant's `started` with the same call id fail
 * the whole batch it was written in.
 */
export class OpenCallsPerTenant1764500100000 implements MigrationInterface {
  name = 'OpenCallsPerTenant1764500100000';

  up(runner: QueryRunner): Promise<void> {
    return this.rekey(runner, ['tenant_id', 'call_id']);
  }

  down(runner: QueryRunner): Promise<void> {
    return this.rekey(runner, ['call_id']);
  }

  private async rekey(runner: QueryRunner, primary: readonly string[]): Promise<void> {
    if (isMysql(runner.manager)) {
      await runner.query(
        `ALTER TABLE audit_open_calls DROP PRIMARY KEY, ADD PRIMARY KEY (${primary.join(', ')})`,
      );
      return;
    }
    await runner.createTable(openCallsTable('audit_open_calls_rekeyed', primary));
    await runner.query(
      `INSERT INTO audit_open_calls_rekeyed (${COLUMNS}) SELECT ${COLUMNS} FROM audit_open_calls`,
    );
    await runner.dropTable('audit_open_calls');
    await runner.renameTable('audit_open_calls_rekeyed', 'audit_open_calls');
    await runner.createIndex(
      'audit_open_calls',
      new TableIndex({ name: 'idx_audit_open_calls_instance', columnNames: ['instance_id'] }),
    );
  }
}
