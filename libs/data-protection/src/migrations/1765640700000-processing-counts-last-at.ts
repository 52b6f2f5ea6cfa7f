import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * When each processing counter last counted a call: what its 3-year retention runs from (PIPL
 * 第五十六条, ADR 047). Counters stored before have none and are kept.
 */
export class ProcessingCountsLastAt1765640700000 implements MigrationInterface {
  name = 'ProcessingCountsLastAt1765640700000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn(
      'processing_counts',
      new TableColumn({ name: 'last_at', type: 'datetime', precision: 3, isNullable: true }),
    );
    await runner.createIndex(
      'processing_counts',
      new TableIndex({ name: 'IDX_processing_counts_last_at', columnNames: ['last_at'] }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropIndex('processing_counts', 'IDX_processing_counts_last_at');
    await runner.dropColumn('processing_counts', 'last_at');
  }
}
