import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  auditExportQuerySchema,
  auditListQuerySchema,
  AuditQueries,
  auditVerifyQuerySchema,
  type AuditExportQuery,
  type AuditListQuery,
  type AuditVerifyQuery,
} from '@toolgate/audit';
import { canAccessTenant, CurrentPrincipal, Roles, type Principal } from '@toolgate/auth';
import {
  auditEventViewSchema,
  auditPageSchema,
  callStorySchema,
  checkpointExportSchema,
  checkpointSchema,
  checkpointTenantQuery,
  incompleteCallSchema,
  verificationSchema,
  type CheckpointTenantQuery,
} from '@toolgate/contract';
import { ErrorCode, ok, ToolgateError } from '@toolgate/toolkit';
import type { FastifyReply } from 'fastify';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/**
 * CONTRACT.md "Audit": compliance reads the trail, exports it and proves nobody edited it.
 * A tenant's auditor sees its tenant only; a tenantless auditor (and platform admins) see all.
 */
@ApiTags('audit')
@ApiBearerAuth()
@Roles('auditor', 'platform_admin')
@Controller('v1/audit')
export class AuditController {
  constructor(private readonly audit: AuditQueries) {}

  @Get('events')
  @ApiOperation({
    summary: 'Events, newest first, filtered, with a keyset cursor that stays stable while rows are added',
  })
  @ApiEnvelope(auditPageSchema)
  async events(
    @CurrentPrincipal() p: Principal,
    @Query({ schema: auditListQuerySchema }) query: AuditListQuery,
  ) {
    return ok(await this.audit.list(query, p.tenantId));
  }

  @Get('events/:id')
  @ApiOperation({ summary: 'One event' })
  @ApiEnvelope(auditEventViewSchema, { errors: ['NOT_FOUND'] })
  async event(@CurrentPrincipal() p: Principal, @Param('id') id: string) {
    return ok(await this.audit.event(id, p.tenantId));
  }

  @Get('calls/:callId')
  @ApiOperation({ summary: "A call's whole story: started → approval → finished / late completion" })
  @ApiEnvelope(callStorySchema, { errors: ['NOT_FOUND'] })
  async call(@CurrentPrincipal() p: Principal, @Param('callId') callId: string) {
    return ok(await this.audit.call(callId, p.tenantId));
  }

  @Get('incomplete')
  @ApiOperation({ summary: 'Calls with a started event and no closing event yet' })
  @ApiEnvelope([incompleteCallSchema])
  async incomplete(@CurrentPrincipal() p: Principal) {
    return ok(await this.audit.incomplete(p.tenantId));
  }

  @Get('export')
  @ApiOperation({
    summary: 'The filtered events as CSV (UTF-8 with BOM, opens in Excel) or JSON Lines, streamed',
  })
  @ApiEnvelope(null, { text: ['text/csv', 'application/x-ndjson'] })
  async export(
    @CurrentPrincipal() p: Principal,
    @Query({ schema: auditExportQuerySchema }) query: AuditExportQuery,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    // Checked before the reply is taken over: after hijack() no error can become an envelope.
    if (query.tenantId !== undefined && !canAccessTenant(p, query.tenantId))
      throw new ToolgateError(ErrorCode.FORBIDDEN);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type':
        query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="toolgate-audit-${stamp}.${query.format}"`,
      'cache-control': 'no-store',
    });
    try {
      await this.audit.export(query, p.tenantId, reply.raw);
    } finally {
      reply.raw.end();
    }
  }

  @Get('verify')
  @ApiOperation({
    summary: 'Recompute the chain against the signed checkpoints; names the first broken event',
  })
  @ApiEnvelope(verificationSchema)
  async verify(
    @CurrentPrincipal() p: Principal,
    @Query({ schema: auditVerifyQuerySchema }) query: AuditVerifyQuery,
  ) {
    return ok(await this.audit.verify(query, p.tenantId));
  }

  @Get('checkpoints')
  @ApiOperation({ summary: 'Signed checkpoints and the public key, for an outside anchor' })
  @ApiEnvelope(checkpointExportSchema)
  async checkpoints(
    @CurrentPrincipal() p: Principal,
    @Query({ schema: checkpointTenantQuery }) query: CheckpointTenantQuery,
  ) {
    return ok(await this.audit.checkpointsOf(p.tenantId, query.tenantId));
  }

  @Post('checkpoints')
  @HttpCode(201)
  @ApiOperation({ summary: 'Sign a checkpoint now (for the tenant given, or every tenant whose chain grew)' })
  @ApiEnvelope([checkpointSchema], { status: 201, errors: ['AUDIT_CHAIN_BROKEN'] })
  async checkpointNow(
    @CurrentPrincipal() p: Principal,
    @Body({ schema: checkpointTenantQuery }) body: CheckpointTenantQuery,
  ) {
    return ok(await this.audit.checkpointNow(p.tenantId, body.tenantId));
  }
}
