import { useBinaryCollation } from '@toolgate/database';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Retention of the trail (ADR 037): each tenant's retention and legal hold (`audit_retention`), how
 * far its chain is archived (`audit_archive_cursors`) and purged (`audit_purge_boundaries`, whose
 * `window_seq` is also what the compliance profile's DELETE guard lets the purge account remove).
 */
export class AuditRetention1765500100000 implements MigrationInterface {
  name = 'AuditRetention1765500100000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'audit_retention',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          // Set through the admin API; null: the tenant file's, else the platform default.
          { name: 'retention_days', type: 'int', isNullable: true },
          { name: 'hold', type: 'int', default: 0 },
          { name: 'hold_reason', type: 'varchar', length: '500', isNullable: true },
          { name: 'hold_by', type: 'varchar', length: '200', isNullable: true },
          { name: 'hold_since', type: 'datetime', precision: 3, isNullable: true },
          { name: 'updated_at', type: 'datetime', precision: 3 },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'audit_archive_cursors',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'seq', type: 'bigint' },
          { name: 'hash', type: 'varchar', length: '64' },
          { name: 'files', type: 'int' },
          { name: 'archived_at', type: 'datetime', precision: 3, isNullable: true },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'audit_purge_boundaries',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          // Every event up to `seq` is purged; `hash` is that event's, `keyed` whether its link was.
          { name: 'seq', type: 'bigint' },
          { name: 'hash', type: 'varchar', length: '64' },
          { name: 'keyed', type: 'int' },
          // What the purge under way may remove (the DELETE guard reads it): at least `seq`.
          { name: 'window_seq', type: 'bigint' },
          { name: 'events', type: 'bigint' },
          { name: 'purged_at', type: 'datetime', precision: 3, isNullable: true },
        ],
      }),
    );
    await useBinaryCollation(runner, 'audit_retention', ['tenant_id']);
    await useBinaryCollation(runner, 'audit_archive_cursors', ['tenant_id']);
    await useBinaryCollation(runner, 'audit_purge_boundaries', ['tenant_id']);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const t of ['audit_purge_boundaries', 'audit_archive_cursors', 'audit_retention'])
      await runner.dropTable(t);
  }
}
