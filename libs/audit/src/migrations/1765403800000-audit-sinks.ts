import { autoIncrementIdColumn, useBinaryCollation } from '@toolgate/database';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The SIEM forwarder's state (ADR 038): `audit_sink_cursors` (per sink and tenant, the seq
 * delivered so far), `audit_sink_leases` (which gateway forwards for a sink, until when) and
 * `audit_sink_dead_letters` (events a receiver refused for good: a pointer into the chain and the
 * reason, never a copy of the event).
 */
export class AuditSinks1765403800000 implements MigrationInterface {
  name = 'AuditSinks1765403800000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'audit_sink_cursors',
        columns: [
          { name: 'sink', type: 'varchar', length: '64', isPrimary: true },
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'seq', type: 'bigint' },
          { name: 'updated_at', type: 'datetime', precision: 3 },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'audit_sink_leases',
        columns: [
          { name: 'sink', type: 'varchar', length: '64', isPrimary: true },
          { name: 'holder', type: 'varchar', length: '128' },
          { name: 'expires_at', type: 'datetime', precision: 3 },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'audit_sink_dead_letters',
        columns: [
          autoIncrementIdColumn(runner),
          { name: 'sink', type: 'varchar', length: '64' },
          { name: 'tenant_id', type: 'varchar', length: '64' },
          { name: 'seq', type: 'bigint' },
          { name: 'event', type: 'varchar', length: '64' },
          { name: 'hash', type: 'varchar', length: '64' },
          { name: 'reason', type: 'varchar', length: '300' },
          { name: 'attempts', type: 'int' },
          { name: 'failed_at', type: 'datetime', precision: 3 },
        ],
        uniques: [{ name: 'uq_audit_sink_dead_letters', columnNames: ['sink', 'tenant_id', 'seq'] }],
      }),
    );
    await useBinaryCollation(runner, 'audit_sink_cursors', ['sink', 'tenant_id']);
    await useBinaryCollation(runner, 'audit_sink_leases', ['sink']);
    await useBinaryCollation(runner, 'audit_sink_dead_letters', ['sink', 'tenant_id']);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const t of ['audit_sink_dead_letters', 'audit_sink_leases', 'audit_sink_cursors'])
      await runner.dropTable(t);
  }
}
