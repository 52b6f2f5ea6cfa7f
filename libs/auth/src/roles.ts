/** The roles of CONTRACT.md "Auth". */
export const ROLES = ['platform_admin', 'tenant_admin', 'approver', 'auditor', 'agent'] as const;
export type Role = (typeof ROLES)[number];

/** Roles a tenant admin may hand out, always within its own tenant. */
export const TENANT_GRANTABLE_ROLES: readonly Role[] = ['tenant_admin', 'approver', 'auditor', 'agent'];

/** Roles that must belong to a tenant; only platform admins and auditors may be tenantless. */
export const TENANT_BOUND_ROLES: readonly Role[] = ['tenant_admin', 'approver', 'agent'];
