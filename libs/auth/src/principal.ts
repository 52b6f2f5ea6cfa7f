import type { CallPrincipal } from '@toolgate/toolkit';
import type { Role } from './roles.js';

/** The caller behind an API key. The tenant always comes from here, never from a request body. */
export interface Principal extends CallPrincipal {
  readonly principalType: 'api_key';
  /** The key's id (not its secret). */
  readonly principalId: string;
  readonly role: Role;
  /** Null for platform-wide keys (platform admins, tenantless auditors). */
  readonly tenantId: string | null;
  /** Agent keys may be limited to some agent types; null means all of the tenant's. */
  readonly agentTypes: readonly string[] | null;
  readonly name: string;
}

/** True when the principal may act on `tenantId`: its own tenant, or any tenant for platform-wide keys. */
export function canAccessTenant(principal: Principal, tenantId: string): boolean {
  return principal.tenantId === null
    ? principal.role === 'platform_admin' || principal.role === 'auditor'
    : principal.tenantId === tenantId;
}
