import { ConfigurableModuleBuilder, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CallQuotas } from './call-quotas.js';
import { KeyConcurrency } from './concurrency/key-concurrency.js';
import { TenantTokenDayEntity } from './entities/tenant-token-day.entity.js';
import { QuotaHook } from './quota.hook.js';
import { RuleLimitHook } from './rule-limit.hook.js';
import { QUOTAS_OPTIONS, type QuotasOptions } from './quotas.options.js';
import { TokenBudget } from './tokens/token-budget.js';
import { TokenDayRepository } from './tokens/token-day.repository.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<QuotasOptions>({
  optionsInjectionToken: QUOTAS_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/**
 * Call quotas per tenant and per key, the tenant's tokens per day, and the per-key caps on open
 * work. `QuotasModule.forRoot(options)` (or `forRootAsync`). Global: the runs lib counts run starts
 * (`CallQuotas`) and tokens (`TokenBudget`), and the runs and MCP faces cap open work
 * (`KeyConcurrency`).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([TenantTokenDayEntity])],
  providers: [CallQuotas, QuotaHook, RuleLimitHook, TokenDayRepository, TokenBudget, KeyConcurrency],
  exports: [CallQuotas, TokenBudget, KeyConcurrency],
})
export class QuotasModule extends ConfigurableModuleClass {}
