import { describe, expect, it } from 'vitest';
import { isTenantEnvName, namespacedEnvName, tenantEnvNamespace } from './secret-namespaces.js';

describe('tenantEnvNamespace: one namespace per tenant in every secret family', () => {
  it('names each family’s namespace the same way', () => {
    expect(tenantEnvNamespace('connector', 'acme')).toBe('TOOLGATE_T_ACME__');
    expect(tenantEnvNamespace('notification', 'north-east')).toBe('TOOLGATE_NOTIFY_NORTH_EAST__');
    expect(tenantEnvNamespace('upstream', 'a_b')).toBe('TOOLGATE_UPSTREAM_A_B__');
  });

  it('accepts only the tenant’s own names of that family', () => {
    expect(isTenantEnvName('upstream', 'acme', 'TOOLGATE_UPSTREAM_ACME__CRM_TOKEN')).toBe(true);
    for (const name of [
      'TOOLGATE_UPSTREAM_GLOBEX__CRM_TOKEN',
      'TOOLGATE_UPSTREAM_CRM_TOKEN',
      'TOOLGATE_UPSTREAM_ACME__',
      'TOOLGATE_UPSTREAM_ACME__crm',
      'TOOLGATE_UPSTREAM_ACME__CRM-TOKEN',
      'TOOLGATE_T_ACME__CRM_TOKEN',
      'TOOLGATE_NOTIFY_ACME__CRM_TOKEN',
      'DATABASE_URL',
      `TOOLGATE_UPSTREAM_ACME__${'X'.repeat(110)}`,
    ])
      expect(isTenantEnvName('upstream', 'acme', name), name).toBe(false);
    // A tenant whose id starts like another's (acme_x) never reaches acme's names, nor acme its.
    expect(isTenantEnvName('upstream', 'acme_x', 'TOOLGATE_UPSTREAM_ACME__X__TOKEN')).toBe(false);
    expect(isTenantEnvName('upstream', 'acme', 'TOOLGATE_UPSTREAM_ACME_X__TOKEN')).toBe(false);
  });

  it('renames a name from before namespaces into the tenant’s, and leaves its own names alone', () => {
    expect(namespacedEnvName('upstream', 'acme', 'TOOLGATE_UPSTREAM_CRM_TOKEN')).toBe(
      'TOOLGATE_UPSTREAM_ACME__CRM_TOKEN',
    );
    expect(namespacedEnvName('upstream', 'acme', 'TOOLGATE_UPSTREAM_ACME__CRM_TOKEN')).toBe(
      'TOOLGATE_UPSTREAM_ACME__CRM_TOKEN',
    );
    expect(namespacedEnvName('upstream', 'acme', 'TOOLGATE_UPSTREAM_GLOBEX__CRM_TOKEN')).toBe(
      'TOOLGATE_UPSTREAM_ACME__GLOBEX__CRM_TOKEN',
    );
  });
});
