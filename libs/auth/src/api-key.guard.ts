import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PRINCIPAL_PROPERTY, PUBLIC_KEY, ROLES_KEY } from './access.decorators.js';
import { ApiKeyService } from './api-key.service.js';
import type { Role } from './roles.js';

/**
 * Every route needs a valid key unless marked `@Public()`; `@Roles(...)` narrows who may call it.
 * Failures are typed errors (UNAUTHENTICATED 401, FORBIDDEN 403) for the one exception filter.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeyService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const request = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | undefined> } & Record<string, unknown>>();
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, targets);
    request[PRINCIPAL_PROPERTY] = await this.keys.authorize(request.headers.authorization, roles);
    return true;
  }
}
