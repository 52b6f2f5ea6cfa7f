import { useBinaryCollation } from '@toolgate/database';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Calls that sent classified fields to a recipient, per tenant, tool and recipient (ADR 040). */
export class ProcessingCounts1765640500000 implements MigrationInterface {
  name = 'ProcessingCounts1765640500000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'processing_counts',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'tool', type: 'varchar', length: '128', isPrimary: true },
          { name: 'recipient', type: 'varchar', length: '64', isPrimary: true },
          { name: 'calls', type: 'bigint' },
          { name: 'cross_border', type: 'bigint' },
        ],
      }),
    );
    await useBinaryCollation(runner, 'processing_counts', ['tenant_id', 'tool', 'recipient']);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('processing_counts');
  }
}
