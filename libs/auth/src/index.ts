import { CreateApiKeys1764480000000 } from './migrations/1764480000000-create-api-keys.js';

// Public surface of the auth lib: API keys, principals, roles, the guard.
export { CurrentPrincipal, Public, Roles } from './access.decorators.js';
export { AdminKeyBootstrap } from './admin-key.bootstrap.js';
export { ApiKeyGuard } from './api-key.guard.js';
export { ApiKeyService } from './api-key.service.js';
export type { ApiKeyView, CreatedKey, CreateKeyCommand } from './api-key.service.js';
export { AuthModule } from './auth.module.js';
export { DEFAULT_AUTH_OPTIONS } from './auth.options.js';
export type { AuthOptions } from './auth.options.js';
export { canAccessTenant, personPrincipal } from './principal.js';
export type { PersonIdentity, Principal } from './principal.js';
export { ROLES, TENANT_BOUND_ROLES, TENANT_GRANTABLE_ROLES } from './roles.js';
export type { Role } from './roles.js';
export { CreateApiKeys1764480000000 };
/** The auth lib's migrations, in order. */
export const AUTH_MIGRATIONS = [CreateApiKeys1764480000000];
