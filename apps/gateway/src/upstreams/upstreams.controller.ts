import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Roles, type Principal } from '@toolgate/auth';
import {
  deletedUpstreamSchema,
  importUpstreamResultSchema,
  importUpstreamToolsBody,
  importedToolSchema,
  refreshUpstreamResultSchema,
  registerUpstreamBody,
  registerUpstreamResultSchema,
  reviewUpstreamToolBody,
  upstreamDetailSchema,
  upstreamLiveToolSchema,
  upstreamToolDiffSchema,
  upstreamViewSchema,
  type ImportUpstreamToolsBody,
  type RegisterUpstreamBody,
  type ReviewUpstreamToolBody,
} from '@toolgate/contract';
import { ok } from '@toolgate/toolkit';
import { UpstreamAdmin } from '@toolgate/upstreams';
import { actorOf, tenantInScope } from '../admin/admin-scope.js';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/** Outside tool sources of a tenant: register, import, refresh, review (issue 11). */
@ApiTags('upstreams')
@ApiBearerAuth()
@Roles('platform_admin', 'tenant_admin')
@Controller('v1/admin/tenants/:tenantId/upstreams')
export class UpstreamsController {
  constructor(private readonly upstreams: UpstreamAdmin) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Register an upstream MCP server (connects once to check it) and list its tools' })
  @ApiEnvelope(registerUpstreamResultSchema, {
    status: 201,
    errors: ['NOT_FOUND', 'ALREADY_EXISTS', 'UPSTREAM_ERROR'],
  })
  async register(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Body({ schema: registerUpstreamBody }) body: RegisterUpstreamBody,
  ) {
    return ok(await this.upstreams.register(tenantInScope(actor, tenantId), body, actorOf(actor)));
  }

  @Get()
  @ApiEnvelope([upstreamViewSchema], { errors: ['NOT_FOUND'] })
  async list(@CurrentPrincipal() actor: Principal, @Param('tenantId') tenantId: string) {
    return ok(await this.upstreams.list(tenantInScope(actor, tenantId)));
  }

  @Get(':name')
  @ApiEnvelope(upstreamDetailSchema, { errors: ['NOT_FOUND'] })
  async get(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
  ) {
    return ok(await this.upstreams.get(tenantInScope(actor, tenantId), name));
  }

  @Delete(':name')
  @ApiOperation({ summary: 'Delete an upstream and its imported tools' })
  @ApiEnvelope(deletedUpstreamSchema, { errors: ['NOT_FOUND'] })
  async remove(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
  ) {
    await this.upstreams.remove(tenantInScope(actor, tenantId), name, actorOf(actor));
    return ok({ name, deleted: true as const });
  }

  @Get(':name/tools')
  @ApiOperation({ summary: 'The tools the upstream lists now, each marked imported or not' })
  @ApiEnvelope([upstreamLiveToolSchema], { errors: ['NOT_FOUND', 'UPSTREAM_ERROR'] })
  async tools(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
  ) {
    return ok(await this.upstreams.liveTools(tenantInScope(actor, tenantId), name));
  }

  @Post(':name/import')
  @HttpCode(200)
  @ApiOperation({ summary: 'Import chosen tools (pinned), optionally binding them to agent types' })
  @ApiEnvelope(importUpstreamResultSchema, {
    errors: ['NOT_FOUND', 'ALREADY_EXISTS', 'VERSION_CONFLICT', 'UPSTREAM_ERROR'],
  })
  async import(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
    @Body({ schema: importUpstreamToolsBody }) body: ImportUpstreamToolsBody,
  ) {
    return ok(await this.upstreams.import(tenantInScope(actor, tenantId), name, body, actorOf(actor)));
  }

  @Post(':name/refresh')
  @HttpCode(200)
  @ApiOperation({ summary: 'Compare the upstream’s tools with the pinned definitions now' })
  @ApiEnvelope(refreshUpstreamResultSchema, { errors: ['NOT_FOUND', 'UPSTREAM_ERROR'] })
  async refresh(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
  ) {
    return ok(await this.upstreams.refresh(tenantInScope(actor, tenantId), name, actorOf(actor)));
  }

  @Get(':name/tools/:tool/diff')
  @ApiOperation({ summary: 'Pinned and pending definition of an imported tool, and the fields that changed' })
  @ApiEnvelope(upstreamToolDiffSchema, { errors: ['NOT_FOUND'] })
  async diff(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
    @Param('tool') tool: string,
  ) {
    return ok(await this.upstreams.diff(tenantInScope(actor, tenantId), name, tool));
  }

  @Post(':name/tools/:tool/review')
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept the changed definition of a quarantined tool, or keep it blocked' })
  @ApiEnvelope(importedToolSchema, { errors: ['NOT_FOUND', 'VERSION_CONFLICT'] })
  async review(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('name') name: string,
    @Param('tool') tool: string,
    @Body({ schema: reviewUpstreamToolBody }) body: ReviewUpstreamToolBody,
  ) {
    return ok(await this.upstreams.review(tenantInScope(actor, tenantId), name, tool, body, actorOf(actor)));
  }
}
