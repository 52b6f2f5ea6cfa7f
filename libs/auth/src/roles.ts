import type { Role } from '@toolgate/contract';

// The roles of CONTRACT.md "Auth" are the contract's.
export { ROLES } from '@toolgate/contract';
export type { Role } from '@toolgate/contract';

/** Roles a tenant admin may hand out, always within its own tenant. */
export const TENANT_GRANTABLE_ROLES: readonly Role[] = ['tenant_admin', 'approver', 'auditor', 'agent'];

/** Roles that must belong to a tenant; only platform admins and auditors may be tenantless. */
export const TENANT_BOUND_ROLES: readonly Role[] = ['tenant_admin', 'approver', 'agent'];
