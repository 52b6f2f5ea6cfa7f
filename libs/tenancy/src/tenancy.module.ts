import { asyncOptionsProvider, type AsyncModuleOptions } from '@toolgate/toolkit';
import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AUDIT_POLICY_SOURCE } from '@toolgate/audit';
import { BindingAdmin } from './binding-admin.service.js';
import { BindingResolver } from './binding-resolver.js';
import { TenantAdmin } from './tenant-admin.service.js';
import { ConfigVariables } from './config-variables.js';
import { AgentBindingEntity } from './entities/agent-binding.entity.js';
import { BindingHistoryEntity } from './entities/binding-history.entity.js';
import { TenantEntity } from './entities/tenant.entity.js';
import { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options.js';
import { TenantConfigImporter } from './tenant-config.importer.js';
import { TenantAuditPolicy } from './tenant-audit-policy.js';
import { TenantConnectors } from './tenant-connectors.js';
import { TenantRepository } from './tenant.repository.js';

/** Tenants, agent types and bindings: imported from `config/tenants`, resolved per call. */
@Module({})
export class TenancyModule {
  static forRootAsync(options: AsyncModuleOptions<TenancyOptions>): DynamicModule {
    return {
      module: TenancyModule,
      global: true,
      imports: [
        TypeOrmModule.forFeature([TenantEntity, AgentBindingEntity, BindingHistoryEntity]),
        ...(options.imports ?? []),
      ],
      providers: [
        asyncOptionsProvider(TENANCY_OPTIONS, options),
        TenantRepository,
        BindingResolver,
        ConfigVariables,
        TenantConnectors,
        TenantConfigImporter,
        BindingAdmin,
        TenantAdmin,
        { provide: AUDIT_POLICY_SOURCE, useClass: TenantAuditPolicy },
      ],
      exports: [
        BindingResolver,
        BindingAdmin,
        TenantAdmin,
        ConfigVariables,
        TenantConnectors,
        TenantRepository,
        AUDIT_POLICY_SOURCE,
      ],
    };
  }
}
