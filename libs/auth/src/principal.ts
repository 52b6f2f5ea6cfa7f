import { isSeparatedRole } from '@toolgate/contract';
import type { CallPrincipal } from '@toolgate/toolkit';
import type { Role } from './roles.js';

/**
 * The caller: an API key, or a person signed in through the company's identity provider (or mapped
 * from an IM account). The tenant always comes from here, never from a request body.
 */
export interface Principal extends CallPrincipal {
  readonly principalType: 'api_key' | 'user';
  /** The key's id (not its secret), or the person's stable subject (`<idp>:<sub>`). */
  readonly principalId: string;
  readonly role: Role;
  /** Null for platform-wide keys (platform admins, tenantless auditors). */
  readonly tenantId: string | null;
  /** Agent keys may be limited to some agent types; null means all of the tenant's. */
  readonly agentTypes: readonly string[] | null;
  readonly name: string;
  /** A person's e-mail from the identity token; never set for keys. */
  readonly email?: string;
}

/** What an identity provider (or an IM account mapped to one) tells about a person. */
export interface PersonIdentity {
  /** The provider's id in configuration (`oidc`, `feishu`, …): subjects are unique per provider only. */
  readonly provider: string;
  readonly subject: string;
  readonly name?: string;
  readonly email?: string;
}

/** A signed-in person acting with `role` on `tenantId` (null: platform-wide). */
export function personPrincipal(person: PersonIdentity, role: Role, tenantId: string | null): Principal {
  return {
    principalType: 'user',
    principalId: `${person.provider}:${person.subject}`,
    role,
    tenantId,
    agentTypes: null,
    name: person.name ?? person.email ?? person.subject,
    ...(person.email ? { email: person.email } : {}),
  };
}
/**
 * True when the principal may act on `tenantId`: its own tenant, or any tenant for platform-wide
 * keys (platform admins, tenantless auditors, the separated administrators). What it may do there
 * is the power table's question (ADR 039).
 */
export function canAccessTenant(principal: Principal, tenantId: string): boolean {
  return principal.tenantId === null
    ? principal.role === 'platform_admin' || principal.role === 'auditor' || isSeparatedRole(principal.role)
    : principal.tenantId === tenantId;
}
