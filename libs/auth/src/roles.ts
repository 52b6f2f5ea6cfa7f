import type { Role } from '@toolgate/contract';

// The roles of CONTRACT.md "Auth" are the contract's, and so is which of them belong to a tenant
// (the key body's schema states it).
export { ROLES, TENANT_BOUND_ROLES } from '@toolgate/contract';
export type { Role } from '@toolgate/contract';

/** Roles a tenant admin may hand out, always within its own tenant. */
export const TENANT_GRANTABLE_ROLES: readonly Role[] = ['tenant_admin', 'approver', 'auditor', 'agent'];
