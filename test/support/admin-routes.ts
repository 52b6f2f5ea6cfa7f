import { RequestMethod } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { POWER_KEY } from '@toolgate/auth';
import type { AdminPower } from '@toolgate/contract';

/** One REST route of the gateway with the admin power it declares (none: not an admin route). */
export interface DeclaredRoute {
  readonly method: string;
  /** `/v1/admin/tenants/:tenantId`, as the controller declares it. */
  readonly path: string;
  readonly power: AdminPower | undefined;
}

const join = (...parts: (string | undefined)[]) =>
  `/${parts
    .filter((p): p is string => !!p)
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/')}`;

/**
 * Every route of every controller in `app`, read from the decorators Nest itself routes by (path,
 * method) and `@AdminPower` — the one table of admin routes and their powers (ADR 039), so a test
 * can walk it and a route added without a power shows up.
 */
export function declaredRoutes(app: INestApplication): DeclaredRoute[] {
  const out: DeclaredRoute[] = [];
  for (const module of app.get(ModulesContainer).values())
    for (const wrapper of module.controllers.values()) {
      const type = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!type) continue;
      const base = Reflect.getMetadata('path', type) as string | undefined;
      const classPower = Reflect.getMetadata(POWER_KEY, type) as AdminPower | undefined;
      for (const name of Object.getOwnPropertyNames(type.prototype)) {
        const handler = (type.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path = Reflect.getMetadata('path', handler) as string | undefined;
        const method = Reflect.getMetadata('method', handler) as RequestMethod | undefined;
        if (path === undefined || method === undefined) continue;
        out.push({
          method: RequestMethod[method],
          path: join(base, path),
          power: (Reflect.getMetadata(POWER_KEY, handler) as AdminPower | undefined) ?? classPower,
        });
      }
    }
  return out;
}
