import { asyncOptionsProvider, type AsyncModuleOptions } from '@toolgate/toolkit';
import { Module, type DynamicModule } from '@nestjs/common';
import { QuotaHook } from './quota.hook.js';
import { QUOTAS_OPTIONS, type QuotasOptions } from './quotas.options.js';

/** Call quotas per tenant and per key. */
@Module({})
export class QuotasModule {
  static forRootAsync(options: AsyncModuleOptions<QuotasOptions>): DynamicModule {
    return {
      module: QuotasModule,
      providers: [asyncOptionsProvider(QUOTAS_OPTIONS, options), QuotaHook],
    };
  }
}
