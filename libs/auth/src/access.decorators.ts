import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Principal } from './principal.js';
import type { AdminPower as Power } from '@toolgate/contract';
import type { Role } from './roles.js';

export const ROLES_KEY = 'toolgate:roles';
export const POWER_KEY = 'toolgate:power';
export const PUBLIC_KEY = 'toolgate:public';

/**
 * Declares which roles may call a handler (or every handler of a controller).
 * @example @Roles('platform_admin', 'tenant_admin') @Post('keys') create(...) {}
 */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);

/**
 * Declares the admin power a handler (or every handler of a controller) needs; who holds it is the
 * contract's power table (`POWER_RULES`), with or without the dengbao3 profile (ADR 039). Takes the
 * place of `@Roles` on admin routes.
 * @example @AdminPower('keys') @Post('keys') create(...) {}
 */
export const AdminPower = (power: Power) => SetMetadata(POWER_KEY, power);

/** Marks a handler as reachable without a key (health, metrics, docs). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** The request property the guard puts the principal on. */
export const PRINCIPAL_PROPERTY = 'toolgatePrincipal';

/** Injects the authenticated principal of the request. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext): Principal => {
  return (ctx.switchToHttp().getRequest() as Record<string, unknown>)[PRINCIPAL_PROPERTY] as Principal;
});

/** The request property the guard puts a browser session's CSRF token on (absent for keys). */
export const CSRF_TOKEN_PROPERTY = 'toolgateCsrfToken';

/** Injects the CSRF token of the request's session, or undefined for key-authenticated requests. */
export const CurrentCsrfToken = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  return (ctx.switchToHttp().getRequest() as Record<string, unknown>)[CSRF_TOKEN_PROPERTY] as
    string | undefined;
});
