import { describe, expect, it } from 'vitest';
import { mapClaimsToRole } from './claim-mapping.js';
import type { ClaimRoleRule } from './oidc.options.js';

const RULES: ClaimRoleRule[] = [
  { claim: 'email', equals: 'root@example.com', role: 'platform_admin' },
  { claim: 'groups', equals: 'acme-approvers', role: 'approver', tenantId: 'acme' },
  { claim: 'groups', equals: 'globex-admins', role: 'tenant_admin', tenantId: 'globex' },
];

describe('claim → role mapping', () => {
  it('maps a group held in a list claim to a tenant role', () => {
    expect(mapClaimsToRole({ groups: ['staff', 'acme-approvers'] }, RULES)).toEqual({
      role: 'approver',
      tenantId: 'acme',
    });
  });

  it('maps a string claim by equality to a platform-wide role', () => {
    expect(mapClaimsToRole({ email: 'root@example.com', groups: ['acme-approvers'] }, RULES)).toEqual({
      role: 'platform_admin',
      tenantId: null,
    });
  });

  it('gives nothing to an unmapped person, and never matches on prefixes, objects or inherited keys', () => {
    expect(mapClaimsToRole({ groups: ['acme-approvers-readonly'] }, RULES)).toBeNull();
    expect(mapClaimsToRole({ groups: { 0: 'acme-approvers' } }, RULES)).toBeNull();
    expect(mapClaimsToRole({ email: 'ROOT@example.com' }, RULES)).toBeNull();
    expect(
      mapClaimsToRole(Object.create({ groups: ['acme-approvers'] }) as Record<string, unknown>, RULES),
    ).toBeNull();
    expect(mapClaimsToRole({}, RULES)).toBeNull();
  });
});
