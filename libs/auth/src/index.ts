// Every export is public API of @toolgate/auth: API keys, principals, roles, sessions and the guard.
import { CreateApiKeys1764480000000 } from './migrations/1764480000000-create-api-keys.js';
import { SessionsAndKeyOwners1765100000000 } from './migrations/1765100000000-sessions-and-key-owners.js';

// Public surface of the auth lib: API keys, principals, roles, the guard.
export {
  AdminPower,
  CurrentCsrfToken,
  CurrentPrincipal,
  POWER_KEY,
  PRINCIPAL_PROPERTY,
  Public,
  Roles,
} from './access.decorators.js';
export { AdminKeyBootstrap } from './admin-key.bootstrap.js';
export type { AdminKeyOrigin } from './admin-key.bootstrap.js';
export { ApiKeyGuard } from './api-key.guard.js';
export { dutiesSeparated, rolesConflict, SeparatedDuties } from './separated-duties.js';
export { RoleMappingAudit } from './oidc/role-mapping-audit.js';
export { ApiKeyService } from './api-key.service.js';
export { KeyOwners } from './key-owners.js';
export type { ApiKeyView, CreatedKey } from './api-key.service.js';
export { AuthModule } from './auth.module.js';
export { DEFAULT_AUTH_OPTIONS } from './auth.options.js';
export type { AuthOptions } from './auth.options.js';
export { canAccessTenant, personPrincipal } from './principal.js';
export { PrincipalStanding, standingLostEnvelope } from './principal-standing.js';
export type { Principal } from './principal.js';
export { ROLES, TENANT_BOUND_ROLES, TENANT_GRANTABLE_ROLES } from './roles.js';
export type { Role } from './roles.js';
export { mapClaimsToRole, separatedRolesOf } from './oidc/claim-mapping.js';
export type { MappedRole } from './oidc/claim-mapping.js';
export { DEFAULT_OIDC_OPTIONS } from './oidc/oidc.options.js';
export type { OidcOptions } from './oidc/oidc.options.js';
export { OidcSignInService } from './oidc/oidc-sign-in.service.js';
export {
  LOGIN_STATE_COOKIE,
  readCookie,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
} from './sessions/session-cookie.js';
export { SessionService } from './sessions/session.service.js';
/** The auth lib's migrations, in order. */
export const AUTH_MIGRATIONS = [CreateApiKeys1764480000000, SessionsAndKeyOwners1765100000000];
