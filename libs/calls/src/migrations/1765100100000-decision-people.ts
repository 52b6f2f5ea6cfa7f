import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 13: a decision records the person who made it (a signed-in person's name and e-mail, or
 * the person who owns the deciding key), and the call record says who decided it.
 */
export class DecisionPeople1765100100000 implements MigrationInterface {
  name = 'DecisionPeople1765100100000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumns('approval_decisions', [
      new TableColumn({ name: 'approver_type', type: 'varchar', length: '16', isNullable: true }),
      new TableColumn({ name: 'approver_name', type: 'varchar', length: '200', isNullable: true }),
      new TableColumn({ name: 'approver_email', type: 'varchar', length: '320', isNullable: true }),
      new TableColumn({ name: 'approver_person', type: 'varchar', length: '300', isNullable: true }),
    ]);
    await runner.addColumn(
      'tool_calls',
      new TableColumn({ name: 'decided_by', type: 'json', isNullable: true }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('tool_calls', 'decided_by');
    for (const c of ['approver_person', 'approver_email', 'approver_name', 'approver_type'])
      await runner.dropColumn('approval_decisions', c);
  }
}
