import {
  Module,
  type DynamicModule,
  type InjectionToken,
  type OptionalFactoryDependency,
} from '@nestjs/common';
import { QuotaHook } from './quota.hook.js';
import { QUOTAS_OPTIONS, type QuotasOptions } from './quotas.options.js';

/** Call quotas per tenant and per key. */
@Module({})
export class QuotasModule {
  static forRootAsync(options: {
    inject?: (InjectionToken | OptionalFactoryDependency)[];
    useFactory: (...args: any[]) => QuotasOptions | Promise<QuotasOptions>;
  }): DynamicModule {
    return {
      module: QuotasModule,
      providers: [
        { provide: QUOTAS_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        QuotaHook,
      ],
    };
  }
}
