import { useBinaryCollation } from '@toolgate/database';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

const at = (name: string, nullable = false) => ({
  name,
  type: 'datetime',
  precision: 3,
  isNullable: nullable,
});

/**
 * Approval notifications (issue 13 §2): the outbox of deliveries, the log of their attempts, and
 * the Feishu callbacks already accepted. The tenant comes first in every primary and unique key.
 */
export class NotificationOutbox1764800100000 implements MigrationInterface {
  name = 'NotificationOutbox1764800100000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'notification_deliveries',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'id', type: 'varchar', length: '40', isPrimary: true },
          { name: 'approval_id', type: 'varchar', length: '64' },
          { name: 'channel', type: 'varchar', length: '64' },
          { name: 'channel_type', type: 'varchar', length: '16' },
          { name: 'kind', type: 'varchar', length: '16' },
          { name: 'occasion', type: 'varchar', length: '40' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'attempts', type: 'int' },
          { name: 'total_attempts', type: 'int' },
          at('next_attempt_at'),
          at('lease_until', true),
          { name: 'last_error', type: 'varchar', length: '500', isNullable: true },
          at('created_at'),
          at('updated_at'),
        ],
        indices: [
          {
            name: 'uq_notification_deliveries_target',
            columnNames: ['tenant_id', 'approval_id', 'channel', 'occasion'],
            isUnique: true,
          },
          { name: 'idx_notification_deliveries_tenant_created', columnNames: ['tenant_id', 'created_at'] },
          // The senders' scan for due deliveries spans tenants (any gateway sends any tenant's).
          { name: 'idx_notification_deliveries_due', columnNames: ['status', 'next_attempt_at'] },
        ],
      }),
    );
    await useBinaryCollation(runner, 'notification_deliveries', [
      'tenant_id',
      'id',
      'approval_id',
      'channel',
    ]);
    await runner.createTable(
      new Table({
        name: 'notification_attempts',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'delivery_id', type: 'varchar', length: '40', isPrimary: true },
          { name: 'seq', type: 'int', isPrimary: true },
          { name: 'status', type: 'varchar', length: '8' },
          { name: 'http_status', type: 'int', isNullable: true },
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
          { name: 'duration_ms', type: 'int' },
          at('attempted_at'),
        ],
      }),
    );
    await useBinaryCollation(runner, 'notification_attempts', ['tenant_id', 'delivery_id']);
    await runner.createTable(
      new Table({
        name: 'notification_callback_nonces',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'nonce', type: 'varchar', length: '128', isPrimary: true },
          at('seen_at'),
        ],
        // Old nonces are dropped by age across tenants.
        indices: [{ name: 'idx_notification_callback_nonces_seen', columnNames: ['seen_at'] }],
      }),
    );
    await useBinaryCollation(runner, 'notification_callback_nonces', ['tenant_id', 'nonce']);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('notification_callback_nonces');
    await runner.dropTable('notification_attempts');
    await runner.dropTable('notification_deliveries');
  }
}
