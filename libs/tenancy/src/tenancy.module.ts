import { ConfigurableModuleBuilder, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AUDIT_POLICY_SOURCE, RETENTION_POLICY_SOURCE } from '@toolgate/audit';
import { BindingAdmin } from './binding-admin.service.js';
import { BindingResolver } from './binding-resolver.js';
import { TenantAdmin } from './tenant-admin.service.js';
import { ConfigVariables } from './config-variables.js';
import { AgentBindingEntity } from './entities/agent-binding.entity.js';
import { BindingHistoryEntity } from './entities/binding-history.entity.js';
import { TenantFileImportEntity } from './entities/tenant-file-import.entity.js';
import { TenantEntity } from './entities/tenant.entity.js';
import { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options.js';
import { TenantConfigImporter } from './tenant-config.importer.js';
import { TenantFileCheck } from './config/tenant-file.check.js';
import { TenantFileSync } from './config/tenant-file.sync.js';
import { TenantFileImports } from './tenant-file-imports.js';
import { TenantAuditPolicy } from './tenant-audit-policy.js';
import { TenantConnectors } from './tenant-connectors.js';
import { TenantRepository } from './tenant.repository.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<TenancyOptions>({
  optionsInjectionToken: TENANCY_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/**
 * Tenants, agent types and bindings: imported from `config/tenants`, resolved per call.
 * `TenancyModule.forRoot(options)` (or `forRootAsync`).
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([
      TenantEntity,
      AgentBindingEntity,
      BindingHistoryEntity,
      TenantFileImportEntity,
    ]),
  ],
  providers: [
    TenantRepository,
    BindingResolver,
    ConfigVariables,
    TenantConnectors,
    TenantFileCheck,
    TenantFileImports,
    TenantFileSync,
    TenantConfigImporter,
    BindingAdmin,
    TenantAdmin,
    TenantAuditPolicy,
    { provide: AUDIT_POLICY_SOURCE, useExisting: TenantAuditPolicy },
    { provide: RETENTION_POLICY_SOURCE, useExisting: TenantAuditPolicy },
  ],
  exports: [
    TenantAuditPolicy,
    BindingResolver,
    BindingAdmin,
    TenantAdmin,
    ConfigVariables,
    TenantConnectors,
    TenantRepository,
    AUDIT_POLICY_SOURCE,
    RETENTION_POLICY_SOURCE,
  ],
})
export class TenancyModule extends ConfigurableModuleClass {}
