import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 23: decided approvals are found by when they were decided (the notifications' outcome
 * messages look at the last hour's every pass), never by scanning the table.
 */
export class ApprovalsDecidedAt1765500200000 implements MigrationInterface {
  name = 'ApprovalsDecidedAt1765500200000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createIndex(
      'approvals',
      new TableIndex({ name: 'idx_approvals_decided', columnNames: ['decided_at'] }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropIndex('approvals', 'idx_approvals_decided');
  }
}
