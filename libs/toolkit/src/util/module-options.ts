import type { DynamicModule, InjectionToken, OptionalFactoryDependency, Provider } from '@nestjs/common';

/**
 * What every lib's `forRootAsync` takes: its settings from a factory, usually fed by
 * `ConfigService` in the gateway (Vendure's "module options through a Symbol token").
 */
export interface AsyncModuleOptions<T> {
  readonly imports?: DynamicModule['imports'];
  readonly inject?: (InjectionToken | OptionalFactoryDependency)[];
  readonly useFactory: (...args: any[]) => T | Promise<T>;
}

/** The provider of a lib's settings under its token. */
export function asyncOptionsProvider<T>(token: symbol, options: AsyncModuleOptions<T>): Provider {
  return { provide: token, useFactory: options.useFactory, inject: options.inject ?? [] };
}
