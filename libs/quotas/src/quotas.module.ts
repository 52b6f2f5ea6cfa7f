import { ConfigurableModuleBuilder, Module } from '@nestjs/common';
import { QuotaHook } from './quota.hook.js';
import { QUOTAS_OPTIONS, type QuotasOptions } from './quotas.options.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<QuotasOptions>({
  optionsInjectionToken: QUOTAS_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/** Call quotas per tenant and per key. `QuotasModule.forRoot(options)` (or `forRootAsync`). */
@Module({ providers: [QuotaHook] })
export class QuotasModule extends ConfigurableModuleClass {}
