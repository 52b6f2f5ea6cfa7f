import type { AuditActor } from '@toolgate/audit';
import { canAccessTenant, type Principal } from '@toolgate/auth';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';

/**
 * The tenant an admin request is about, checked against the key: platform admins reach every
 * tenant; a tenant admin only its own — another tenant's is reported as not found.
 */
export function tenantInScope(actor: Principal, tenantId: string): string {
  if (canAccessTenant(actor, tenantId)) return tenantId;
  throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `tenant ${tenantId}` } });
}

/** The tenants an admin may see: all (null) for platform-wide administrators, or its own. */
export function adminScope(actor: Principal): string | null {
  return actor.tenantId;
}

/** The audit actor of an admin request: the key, or the signed-in person (`user`, `<provider>:<subject>`). */
export function actorOf(actor: Principal): AuditActor {
  return { type: actor.principalType, id: actor.principalId };
}
