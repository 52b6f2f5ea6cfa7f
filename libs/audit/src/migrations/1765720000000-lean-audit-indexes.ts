import { isMysql } from '@toolgate/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `audit_events` keeps the indexes the chain and its readers by call need (ADR 043): the unique
 * (tenant_id, seq) and dedupe key, (tenant_id, occurred_at) for time ranges and retention, and
 * call_id for a call's events. The tool and actor indexes served the auditors' filters, which the
 * call projection (`audit_calls`, ADR 033) serves now with indexes that lead with the tenant; every
 * L1 call paid them twice (two event rows).
 */
export class LeanAuditIndexes1765720000000 implements MigrationInterface {
  name = 'LeanAuditIndexes1765720000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const index of ['idx_audit_tool', 'idx_audit_actor'])
      await runner.query(
        isMysql(runner.manager) ? `DROP INDEX ${index} ON audit_events` : `DROP INDEX IF EXISTS "${index}"`,
      );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE INDEX idx_audit_tool ON audit_events (tool)');
    await runner.query('CREATE INDEX idx_audit_actor ON audit_events (actor_id)');
  }
}
