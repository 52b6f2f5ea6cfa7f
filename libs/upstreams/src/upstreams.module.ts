import { ConfigurableModuleBuilder, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TENANT_TOOL_SOURCE } from '@toolgate/tenancy';
import { UpstreamServerEntity } from './entities/upstream-server.entity.js';
import { UpstreamToolEntity } from './entities/upstream-tool.entity.js';
import { openApiClientFactory } from './openapi/openapi-source-factory.js';
import { UpstreamImports } from './admin/upstream-imports.js';
import { UpstreamLookup } from './admin/upstream-lookup.js';
import { UpstreamRegistration } from './admin/upstream-registration.js';
import { UpstreamReviews } from './admin/upstream-reviews.js';
import { UpstreamServers } from './admin/upstream-servers.js';
import { UPSTREAM_CLIENT_FACTORIES, UpstreamConnections } from './upstream-connections.js';
import { UpstreamPinning } from './upstream-pinning.js';
import { UpstreamRefresher } from './upstream-refresher.js';
import { UpstreamTenantTools } from './upstream-tenant-tools.js';
import { UpstreamRepository } from './upstream.repository.js';
import { UPSTREAMS_OPTIONS, type UpstreamsOptions } from './upstreams.options.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<UpstreamsOptions>({
  optionsInjectionToken: UPSTREAMS_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/**
 * Outside tool sources of a tenant (MCP servers, and OpenAPI 3 services through
 * `UPSTREAM_CLIENT_FACTORIES`): imported tools are tenant tools the binding resolver binds
 * (`TENANT_TOOL_SOURCE`), pinned and refreshed. Global: the tenancy lib injects the tool source.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([UpstreamServerEntity, UpstreamToolEntity])],
  providers: [
    UpstreamRepository,
    { provide: UPSTREAM_CLIENT_FACTORIES, useValue: { openapi: openApiClientFactory } },
    UpstreamConnections,
    UpstreamTenantTools,
    UpstreamPinning,
    UpstreamLookup,
    UpstreamRegistration,
    UpstreamServers,
    UpstreamImports,
    UpstreamReviews,
    UpstreamRefresher,
    { provide: TENANT_TOOL_SOURCE, useExisting: UpstreamTenantTools },
  ],
  exports: [UpstreamRegistration, UpstreamServers, UpstreamImports, UpstreamReviews, TENANT_TOOL_SOURCE],
})
export class UpstreamsModule extends ConfigurableModuleClass {}
