import { isMysql, useBinaryCollation } from '@toolgate/database';
import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Background verifications in the database (ADR 046): any gateway answers a job's progress and
 * result, a job whose gateway died is seen as such, and finished jobs stay readable for a while.
 * `result` is the verification as JSON (up to 100 breaks per tenant: MEDIUMTEXT on MariaDB).
 */
export class AuditVerifyJobs1765700100000 implements MigrationInterface {
  name = 'AuditVerifyJobs1765700100000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'audit_verify_jobs',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'tenant_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'scope', type: 'varchar', length: '64', isNullable: true },
          { name: 'instance_id', type: 'varchar', length: '128' },
          { name: 'boot_id', type: 'varchar', length: '64' },
          { name: 'started_at', type: 'datetime', precision: 3 },
          { name: 'updated_at', type: 'datetime', precision: 3 },
          { name: 'finished_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'checked', type: 'bigint' },
          { name: 'total', type: 'bigint' },
          { name: 'result', type: isMysql(runner.connection) ? 'mediumtext' : 'text', isNullable: true },
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
        ],
      }),
    );
    await runner.createIndex(
      'audit_verify_jobs',
      new TableIndex({ name: 'idx_audit_verify_jobs_finished', columnNames: ['finished_at'] }),
    );
    await useBinaryCollation(runner, 'audit_verify_jobs', ['id', 'tenant_id', 'scope']);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('audit_verify_jobs');
  }
}
