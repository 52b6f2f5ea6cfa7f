import { useBinaryCollation } from '@toolgate/database';
import { Table, TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 13: browser sessions of people signed in through OIDC, sign-ins under way, and the person
 * (`<provider>:<subject>`) who owns an API key, so separation of duties can compare people.
 */
export class SessionsAndKeyOwners1765100000000 implements MigrationInterface {
  name = 'SessionsAndKeyOwners1765100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'auth_sessions',
        columns: [
          { name: 'id_hash', type: 'varchar', length: '64', isPrimary: true },
          { name: 'provider', type: 'varchar', length: '32' },
          { name: 'subject', type: 'varchar', length: '255' },
          { name: 'name', type: 'varchar', length: '200', isNullable: true },
          { name: 'email', type: 'varchar', length: '320', isNullable: true },
          { name: 'role', type: 'varchar', length: '32' },
          { name: 'tenant_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'csrf_token', type: 'varchar', length: '64' },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'expires_at', type: 'datetime', precision: 3 },
        ],
        indices: [{ name: 'idx_auth_sessions_expires', columnNames: ['expires_at'] }],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'oidc_logins',
        columns: [
          { name: 'state_hash', type: 'varchar', length: '64', isPrimary: true },
          { name: 'code_verifier', type: 'varchar', length: '128' },
          { name: 'nonce', type: 'varchar', length: '128' },
          { name: 'expires_at', type: 'datetime', precision: 3 },
        ],
        indices: [{ name: 'idx_oidc_logins_expires', columnNames: ['expires_at'] }],
      }),
    );
    await runner.addColumn(
      'api_keys',
      new TableColumn({ name: 'owner', type: 'varchar', length: '300', isNullable: true }),
    );
    // Opaque identifiers compare byte for byte on MariaDB too (ADR 006).
    await useBinaryCollation(runner, 'auth_sessions', ['id_hash', 'subject', 'tenant_id']);
    await useBinaryCollation(runner, 'oidc_logins', ['state_hash']);
    await useBinaryCollation(runner, 'api_keys', ['owner']);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('api_keys', 'owner');
    await runner.dropTable('oidc_logins');
    await runner.dropTable('auth_sessions');
  }
}
