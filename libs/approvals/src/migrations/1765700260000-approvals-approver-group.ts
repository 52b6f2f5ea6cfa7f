import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 26: a tenant rule's `require_approval` may name an approver group (the tenant file's
 * `approvals.groups`); only its members decide the approval. Null: any approver of the tenant.
 */
export class ApprovalsApproverGroup1765700260000 implements MigrationInterface {
  name = 'ApprovalsApproverGroup1765700260000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn(
      'approvals',
      new TableColumn({ name: 'approver_group', type: 'varchar', length: '64', isNullable: true }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('approvals', 'approver_group');
  }
}
