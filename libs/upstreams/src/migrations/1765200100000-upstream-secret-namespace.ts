import { namespacedEnvName } from '@toolgate/contract/rules';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Upstream secrets are read from the tenant's own namespace only (`TOOLGATE_UPSTREAM_<TENANT>__*`,
 * ADR 026, issue 21). A stored name from before is renamed into its tenant's namespace
 * (`TOOLGATE_UPSTREAM_CRM_TOKEN` of acme → `TOOLGATE_UPSTREAM_ACME__CRM_TOKEN`), so it reads that
 * tenant's variable or nothing: the platform admin sets the new variable, and the old one is never
 * read again. Nothing to undo: the renamed names are valid before and after.
 */
export class UpstreamSecretNamespace1765200100000 implements MigrationInterface {
  name = 'UpstreamSecretNamespace1765200100000';

  async up(runner: QueryRunner): Promise<void> {
    const rows = (await runner.query(
      'SELECT id, tenant_id, auth_env FROM upstream_servers WHERE auth_env IS NOT NULL',
    )) as { id: string; tenant_id: string; auth_env: string }[];
    for (const row of rows) {
      const renamed = namespacedEnvName('upstream', row.tenant_id, row.auth_env);
      if (renamed !== row.auth_env)
        await runner.query('UPDATE upstream_servers SET auth_env = ? WHERE id = ?', [renamed, row.id]);
    }
  }

  async down(): Promise<void> {
    // The renamed names are valid names of the earlier release too.
  }
}
