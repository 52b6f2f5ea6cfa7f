import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminPower, CurrentPrincipal, type Principal } from '@toolgate/auth';
import {
  deletedUpstreamSchema,
  importUpstreamResultSchema,
  importUpstreamToolsBody,
  importedToolSchema,
  refreshUpstreamResultSchema,
  registerUpstreamBody,
  registerUpstreamResultSchema,
  reviewUpstreamToolBody,
  updateUpstreamBody,
  upstreamDetailSchema,
  upstreamLiveToolSchema,
  upstreamToolDiffSchema,
  upstreamViewSchema,
  type ImportUpstreamToolsBody,
  type RegisterUpstreamBody,
  type ReviewUpstreamToolBody,
  type UpdateUpstreamBody,
} from '@toolgate/contract';
import { ok } from '@toolgate/toolkit';
import { UpstreamImports, UpstreamRegistration, UpstreamReviews, UpstreamServers } from '@toolgate/upstreams';
import { actorOf, tenantInScope } from '../admin/admin-scope.js';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/** Outside tool sources of a tenant: register, import, refresh, review (issue 11). */
@ApiTags('upstreams')
@ApiBearerAuth()
@AdminPower('upstreams')
@Controller('v1/admin/tenants/:tenantId/upstreams')
export class UpstreamsController {
  constructor(
    private readonly registration: UpstreamRegistration,
    private readonly servers: UpstreamServers,
    private readonly imports: UpstreamImports,
    private readonly reviews: UpstreamReviews,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'registerUpstream',
    summary: 'Register an upstream tool source',
    description:
      'An MCP server or an OpenAPI 3 service of the tenant: the gateway connects once to check it and answers its live tools. The auth secret is named by an environment variable, never sent. Unreachable is 502 UPSTREAM_ERROR; an unusable document is 400; a taken name is 409.',
  })
  @ApiEnvelope(registerUpstreamResultSchema, {
    status: 201,
    errors: ['NOT_FOUND', 'ALREADY_EXISTS', 'UPSTREAM_ERROR'],
  })
  async register(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Body({ schema: registerUpstreamBody }) body: RegisterUpstreamBody,
  ) {
    return ok(await this.registration.register(tenantInScope(actor, tenantId), body, actorOf(actor)));
  }

  @Get()
  @ApiOperation({
    operationId: 'listUpstreams',
    summary: 'The tenant’s upstream tool sources',
    description:
      'Each upstream with its settings and how many of its tools are active, quarantined or removed.',
  })
  @ApiEnvelope([upstreamViewSchema], { errors: ['NOT_FOUND'] })
  async list(@CurrentPrincipal() actor: Principal, @Param('tenantId') tenantId: string) {
    return ok(await this.servers.list(tenantInScope(actor, tenantId)));
  }

  @Get(':name')
  @ApiOperation({
    operationId: 'getUpstream',
    summary: 'One upstream with its imported tools',
    description:
      'The upstream and each imported tool: its risk, status, pinned and pending fingerprints, and its review.',
  })
  @ApiEnvelope(upstreamDetailSchema, { errors: ['NOT_FOUND'] })
  async get(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
  ) {
    return ok(await this.servers.get(tenantInScope(actor, tenantId), name));
  }

  @Patch(':name')
  @ApiOperation({
    operationId: 'updateUpstream',
    summary: 'Declare where an upstream processes data',
    description:
      'Sets the region (ISO 3166-1 alpha-2; null: not declared) the cross-border guard reads for the upstream’s tools (ADR 047); audited as upstream_changed server_changed with before and after. Answers the upstream and its imported tools.',
  })
  @ApiEnvelope(upstreamDetailSchema, { errors: ['NOT_FOUND'] })
  async update(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
    @Body({ schema: updateUpstreamBody }) body: UpdateUpstreamBody,
  ) {
    return ok(
      await this.servers.setRegion(tenantInScope(actor, tenantId), name, body.region, actorOf(actor)),
    );
  }

  @Delete(':name')
  @ApiOperation({
    operationId: 'deleteUpstream',
    summary: 'Delete an upstream',
    description: 'Deletes the upstream and its imported tools; they leave the bindings (a binding change).',
  })
  @ApiEnvelope(deletedUpstreamSchema, { errors: ['NOT_FOUND'] })
  async remove(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
  ) {
    await this.servers.remove(tenantInScope(actor, tenantId), name, actorOf(actor));
    return ok({ name, deleted: true as const });
  }

  @Get(':name/tools')
  @ApiOperation({
    operationId: 'listUpstreamTools',
    summary: 'The tools the upstream lists now',
    description:
      'The live list, each tool with its fingerprint, whether it is imported, and under which name.',
  })
  @ApiEnvelope([upstreamLiveToolSchema], { errors: ['NOT_FOUND', 'UPSTREAM_ERROR'] })
  async tools(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
  ) {
    return ok(await this.imports.liveTools(tenantInScope(actor, tenantId), name));
  }

  @Post(':name/import')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'importUpstreamTools',
    summary: 'Import upstream tools',
    description:
      'Imports the chosen tools with their risk level (required), pinned to their current definition, and optionally binds them to agent types.',
  })
  @ApiEnvelope(importUpstreamResultSchema, {
    errors: ['NOT_FOUND', 'ALREADY_EXISTS', 'VERSION_CONFLICT', 'UPSTREAM_ERROR'],
  })
  async import(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
    @Body({ schema: importUpstreamToolsBody }) body: ImportUpstreamToolsBody,
  ) {
    return ok(await this.imports.import(tenantInScope(actor, tenantId), name, body, actorOf(actor)));
  }

  @Post(':name/refresh')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'refreshUpstream',
    summary: 'Compare the upstream with its pins now',
    description:
      'Lists the tools again: a changed definition is quarantined until reviewed, a tool gone upstream is removed, one back is restored.',
  })
  @ApiEnvelope(refreshUpstreamResultSchema, { errors: ['NOT_FOUND', 'UPSTREAM_ERROR'] })
  async refresh(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
  ) {
    return ok(await this.servers.refresh(tenantInScope(actor, tenantId), name, actorOf(actor)));
  }

  @Get(':name/tools/:tool/diff')
  @ApiOperation({
    operationId: 'getUpstreamToolDiff',
    summary: 'What changed in an imported tool',
    description: 'The pinned and the pending definition of an imported tool, and the fields that changed.',
  })
  @ApiEnvelope(upstreamToolDiffSchema, { errors: ['NOT_FOUND'] })
  async diff(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
    @Param('tool') tool: string,
  ) {
    return ok(await this.reviews.diff(tenantInScope(actor, tenantId), name, tool));
  }

  @Post(':name/tools/:tool/review')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'reviewUpstreamTool',
    summary: 'Review a quarantined tool',
    description:
      'Accepts its changed definition (it becomes the pin) or keeps it blocked. A `fingerprint` that is no longer the pending one is 409 VERSION_CONFLICT.',
  })
  @ApiEnvelope(importedToolSchema, { errors: ['NOT_FOUND', 'VERSION_CONFLICT'] })
  async review(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
    @Param('tool') tool: string,
    @Body({ schema: reviewUpstreamToolBody }) body: ReviewUpstreamToolBody,
  ) {
    return ok(await this.reviews.review(tenantInScope(actor, tenantId), name, tool, body, actorOf(actor)));
  }
}
