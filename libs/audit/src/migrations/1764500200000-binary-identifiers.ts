import { useBinaryCollation } from '@toolgate/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Identifiers in the audit tables compare byte for byte on MySQL/MariaDB, as on SQLite: a call id
 * or dedupe key that differs only in case is another key, never "already written".
 */
export class AuditBinaryIdentifiers1764500200000 implements MigrationInterface {
  name = 'AuditBinaryIdentifiers1764500200000';

  async up(runner: QueryRunner): Promise<void> {
    await useBinaryCollation(runner, 'audit_events', [
      'tenant_id',
      'call_id',
      'session_id',
      'actor_id',
      'initiator_id',
      'approver_id',
      'dedupe_key',
    ]);
    await useBinaryCollation(runner, 'audit_open_calls', ['call_id', 'tenant_id']);
    await useBinaryCollation(runner, 'audit_chain_heads', ['tenant_id']);
    await useBinaryCollation(runner, 'audit_checkpoints', ['tenant_id']);
  }

  async down(): Promise<void> {
    // Collations are not restored: byte-exact comparison is what the ids always meant.
  }
}
