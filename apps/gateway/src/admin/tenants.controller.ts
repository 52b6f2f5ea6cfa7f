import { Body, Controller, Get, Header, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminPower, CurrentPrincipal, SeparatedDuties, type Principal } from '@toolgate/auth';
import { BindingAdmin, TenantAdmin } from '@toolgate/tenancy';
import { ErrorCode, ok, ToolgateError } from '@toolgate/toolkit';
import {
  agentTypeParam,
  bindingHistoryEntrySchema,
  bindingPreviewSchema,
  bindingViewSchema,
  catalogToolSchema,
  createTenantBody,
  historyQuery,
  importResultSchema,
  importTenantBody,
  previewBindingsBody,
  replaceBindingsBody,
  tenantDetailSchema,
  tenantViewSchema,
  type CreateTenantBody,
  type HistoryQuery,
  type ImportTenantBody,
  type PreviewBindingsBody,
  type ReplaceBindingsBody,
} from '@toolgate/contract';
import { actorOf, adminScope, tenantInScope } from './admin-scope.js';
import { ToolCatalog } from './tool-catalog.service.js';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/** CONTRACT.md "Admin": the tool catalog, tenants, and per-agent-type bindings with versions. */
@ApiTags('admin')
@ApiBearerAuth()
@Controller('v1/admin')
export class TenantsController {
  constructor(
    private readonly tenants: TenantAdmin,
    private readonly bindings: BindingAdmin,
    private readonly catalog: ToolCatalog,
    private readonly duties: SeparatedDuties,
  ) {}

  @Get('tools')
  @AdminPower('tools.read')
  @ApiOperation({
    operationId: 'listCatalogTools',
    summary: 'The tool catalog',
    description:
      'Every tool contract with its implementations, risk, input and output schemas, and the tenants and agent types that bind it (a tenant admin: its own tenant’s tools and bindings).',
  })
  @ApiEnvelope([catalogToolSchema])
  async tools(@CurrentPrincipal() actor: Principal) {
    return ok(await this.catalog.list(adminScope(actor)));
  }

  @Get('tenants')
  @AdminPower('tenants.read')
  @ApiOperation({
    operationId: 'listTenants',
    summary: 'The tenants',
    description: 'Every tenant for a platform admin; a tenant admin’s own tenant.',
  })
  @ApiEnvelope([tenantViewSchema])
  async list(@CurrentPrincipal() actor: Principal) {
    return ok(await this.tenants.list(adminScope(actor)));
  }

  @Post('tenants')
  @AdminPower('tenants')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createTenant',
    summary: 'Create a tenant',
    description: 'Platform admins only. Answers the tenant with its agent types; a taken id is 409.',
  })
  @ApiEnvelope(tenantDetailSchema, { status: 201, errors: ['ALREADY_EXISTS'] })
  async create(
    @CurrentPrincipal() actor: Principal,
    @Body({ schema: createTenantBody }) body: CreateTenantBody,
  ) {
    // A tenant admin's power is its own tenant's: creating tenants is platform-wide.
    if (actor.tenantId !== null) throw new ToolgateError(ErrorCode.FORBIDDEN);
    return ok(await this.tenants.create(body, actorOf(actor)));
  }

  @Get('tenants/:tenantId')
  @AdminPower('tenants.read')
  @ApiOperation({
    operationId: 'getTenant',
    summary: 'One tenant with its agent types',
    description:
      'The tenant and its agent types with their bindings. Another tenant’s id is 404 for a tenant admin.',
  })
  @ApiEnvelope(tenantDetailSchema, { errors: ['NOT_FOUND'] })
  async get(@CurrentPrincipal() actor: Principal, @Param('tenantId') tenantId: string) {
    return ok(await this.tenants.get(tenantInScope(actor, tenantId)));
  }

  @Get('tenants/:tenantId/bindings')
  @AdminPower('bindings')
  @ApiOperation({
    operationId: 'listBindings',
    summary: 'Bindings per agent type',
    description:
      'Per agent type: its description, version, bound tools and run settings (model, instructions, limits, sub-agents).',
  })
  @ApiEnvelope([bindingViewSchema], { errors: ['NOT_FOUND'] })
  async bindingsOf(@CurrentPrincipal() actor: Principal, @Param('tenantId') tenantId: string) {
    return ok(await this.bindings.list(tenantInScope(actor, tenantId)));
  }

  @Put('tenants/:tenantId/agents/:agentType/bindings')
  @AdminPower('bindings')
  @ApiOperation({
    operationId: 'replaceBindings',
    summary: 'Replace one agent type’s bindings',
    description:
      'Saves a new version of the agent type’s tools (and, when given, its description and run settings). A stale `version` is 409 VERSION_CONFLICT; a binding looser than the tool declares (e.g. less approval) is 400.',
  })
  @ApiEnvelope(bindingViewSchema, { errors: ['NOT_FOUND', 'VERSION_CONFLICT'] })
  async replace(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('agentType', { schema: agentTypeParam }) agentType: string,
    @Body({ schema: replaceBindingsBody }) body: ReplaceBindingsBody,
  ) {
    return ok(await this.bindings.replace(tenantInScope(actor, tenantId), agentType, body, actorOf(actor)));
  }

  @Post('tenants/:tenantId/agents/:agentType/bindings/preview')
  @AdminPower('bindings')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'previewBindings',
    summary: 'Preview a bindings change',
    description:
      'The effective tool set, the problems and the diff a change would give, without saving anything.',
  })
  @ApiEnvelope(bindingPreviewSchema, { errors: ['NOT_FOUND'] })
  async preview(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('agentType', { schema: agentTypeParam }) agentType: string,
    @Body({ schema: previewBindingsBody }) body: PreviewBindingsBody,
  ) {
    return ok(await this.bindings.preview(tenantInScope(actor, tenantId), agentType, body.tools, body.run));
  }

  @Get('tenants/:tenantId/bindings/history')
  @AdminPower('bindings')
  @ApiOperation({
    operationId: 'listBindingHistory',
    summary: 'Saved versions of the bindings',
    description: 'Newest first, optionally for one `agentType`: who changed what, when, and the diff.',
  })
  @ApiEnvelope([bindingHistoryEntrySchema], { errors: ['NOT_FOUND'] })
  async history(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Query({ schema: historyQuery }) query: HistoryQuery,
  ) {
    return ok(await this.bindings.history(tenantInScope(actor, tenantId), query.agentType));
  }

  @Get('tenants/:tenantId/export')
  @AdminPower('tenants')
  @Header('content-type', 'application/yaml; charset=utf-8')
  @ApiOperation({
    operationId: 'exportTenant',
    summary: 'Export the tenant as YAML',
    description:
      'The tenant as a config/tenants file (secrets as their placeholders); importing it again changes nothing.',
  })
  @ApiEnvelope(null, { text: ['application/yaml'], errors: ['NOT_FOUND'] })
  async export(@CurrentPrincipal() actor: Principal, @Param('tenantId') tenantId: string): Promise<string> {
    return this.tenants.exportYaml(tenantInScope(actor, tenantId));
  }

  @Post('tenants/:tenantId/import')
  @AdminPower('tenants')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'importTenant',
    summary: 'Import a tenant file',
    description:
      'Applies a tenant file; changed agent types become new versions. Placeholders resolve only to the tenant’s own variables; a tenant admin may not change connectors (403 with `details.refused`). Each change is audited.',
  })
  @ApiEnvelope(importResultSchema, { errors: ['NOT_FOUND', 'VERSION_CONFLICT'] })
  async import(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Body({ schema: importTenantBody }) body: ImportTenantBody,
  ) {
    // Platform-wide administrators may change connectors; under the profile, the system admin's
    // import may not change bindings, which are the security admin's (ADR 039).
    const authority =
      actor.tenantId !== null
        ? 'tenant'
        : this.duties.on && actor.role === 'system_admin'
          ? 'configuration'
          : 'platform';
    return ok(
      await this.tenants.importYaml(tenantInScope(actor, tenantId), body.yaml, actorOf(actor), authority),
    );
  }
}
