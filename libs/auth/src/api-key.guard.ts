import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import type { AdminPower } from '@toolgate/contract';
import {
  CSRF_TOKEN_PROPERTY,
  POWER_KEY,
  PRINCIPAL_PROPERTY,
  PUBLIC_KEY,
  ROLES_KEY,
} from './access.decorators.js';
import { ApiKeyService } from './api-key.service.js';
import type { Principal } from './principal.js';
import type { Role } from './roles.js';
import { SeparatedDuties } from './separated-duties.js';
import { CSRF_HEADER } from './sessions/session-cookie.js';
import { SessionService } from './sessions/session.service.js';

type GuardedRequest = {
  method: string;
  headers: Record<string, string | undefined>;
} & Record<string, unknown>;

/** Methods that change nothing: no CSRF token needed. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every route needs a credential unless marked `@Public()`; `@Roles(...)` narrows who may call it.
 * The credential is an API key (`Authorization: Bearer`, checked first and exactly as before) or,
 * without an Authorization header, a signed-in person's session cookie; a cookie request that
 * changes something must also carry its session's CSRF token. An admin route names its power
 * (`@AdminPower`), checked against the contract's power table with the profile's separation of
 * duties (ADR 039). Failures are typed errors (UNAUTHENTICATED 401, FORBIDDEN or DUTIES_SEPARATED
 * 403) for the one exception filter.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeyService,
    private readonly sessions: SessionService,
    private readonly duties: SeparatedDuties,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const request = context.switchToHttp().getRequest<GuardedRequest>();
    const power = this.reflector.getAllAndOverride<AdminPower | undefined>(POWER_KEY, targets);
    // A power replaces the roles: the power table says who holds it.
    const roles = power
      ? undefined
      : this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, targets);
    const { authorization, cookie } = request.headers;
    const principal =
      authorization === undefined && cookie !== undefined
        ? await this.sessionPrincipal(request, cookie, roles)
        : await this.keys.authorize(authorization, roles);
    // Set before the power check: a refusal is recorded against the principal it refused.
    request[PRINCIPAL_PROPERTY] = principal;
    if (power) this.duties.check(principal, power);
    return true;
  }

  private async sessionPrincipal(
    request: GuardedRequest,
    cookie: string,
    roles: readonly Role[] | undefined,
  ): Promise<Principal> {
    const session = await this.sessions.resolve(this.sessions.sessionIdIn(cookie));
    if (!session) throw new ToolgateError(ErrorCode.UNAUTHENTICATED);
    if (!SAFE_METHODS.has(request.method)) this.sessions.checkCsrf(session, request.headers[CSRF_HEADER]);
    if (roles && !roles.includes(session.principal.role)) throw new ToolgateError(ErrorCode.FORBIDDEN);
    request[CSRF_TOKEN_PROPERTY] = session.csrfToken;
    return session.principal;
  }
}
