import { ConfigurableModuleBuilder, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantTokenDayEntity } from './entities/tenant-token-day.entity.js';
import { QuotaHook } from './quota.hook.js';
import { QUOTAS_OPTIONS, type QuotasOptions } from './quotas.options.js';
import { TokenBudget } from './tokens/token-budget.js';
import { TokenDayRepository } from './tokens/token-day.repository.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<QuotasOptions>({
  optionsInjectionToken: QUOTAS_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/**
 * Call quotas per tenant and per key, and the tenant's tokens per day. `QuotasModule.forRoot(options)`
 * (or `forRootAsync`). Global: the runs lib checks and counts tokens through `TokenBudget`.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([TenantTokenDayEntity])],
  providers: [QuotaHook, TokenDayRepository, TokenBudget],
  exports: [TokenBudget],
})
export class QuotasModule extends ConfigurableModuleClass {}
