import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RetentionJob, RetentionPolicy } from '@toolgate/audit';
import { AdminPower, canAccessTenant, CurrentPrincipal, type Principal } from '@toolgate/auth';
import {
  legalHoldBody,
  retentionQuery,
  setRetentionBody,
  tenantRetentionSchema,
  type LegalHoldBody,
  type RetentionQuery,
  type SetRetentionBody,
} from '@toolgate/contract';
import { ErrorCode, ok, ToolgateError } from '@toolgate/toolkit';
import { actorOf, tenantInScope } from '../admin/admin-scope.js';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';
import { toRetentionView } from './retention-view.js';

/**
 * CONTRACT.md "Audit" → "Retention" (ADR 037): how long each tenant's trail stays in the database,
 * its legal hold, and how far it is archived and purged.
 */
@ApiTags('audit')
@ApiBearerAuth()
@Controller('v1')
export class RetentionController {
  constructor(
    private readonly policy: RetentionPolicy,
    private readonly job: RetentionJob,
  ) {}

  @Get('audit/retention')
  @AdminPower('trail.read')
  @ApiOperation({
    operationId: 'listAuditRetention',
    summary: 'Retention, legal hold, archived and purged, per tenant',
    description:
      'Each tenant’s effective retention (and where it comes from), its legal hold, the seq its chain is archived through and purged through, and this gateway’s last run. A tenant’s auditor or admin sees its own tenant.',
  })
  @ApiEnvelope([tenantRetentionSchema])
  async list(@CurrentPrincipal() p: Principal, @Query({ schema: retentionQuery }) q: RetentionQuery) {
    if (q.tenantId !== undefined && !canAccessTenant(p, q.tenantId))
      throw new ToolgateError(ErrorCode.FORBIDDEN, { params: { reason: `tenant ${q.tenantId}` } });
    const scope = q.tenantId ?? p.tenantId;
    const statuses = await this.job.status(scope ? [scope] : null);
    return ok(statuses.map(toRetentionView));
  }

  @Put('admin/tenants/:tenantId/retention')
  @AdminPower('tenants')
  @ApiOperation({
    operationId: 'setTenantRetention',
    summary: 'Set a tenant’s audit retention',
    description:
      'Days after which archived events are purged from the database (null: the tenant file’s, else the platform default). Below the platform’s floor is 400 RETENTION_BELOW_FLOOR. Recorded as `retention_changed` with before and after.',
  })
  @ApiEnvelope(tenantRetentionSchema, { errors: ['RETENTION_BELOW_FLOOR', 'NOT_FOUND'] })
  async setRetention(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Body({ schema: setRetentionBody }) body: SetRetentionBody,
  ) {
    const id = tenantInScope(actor, tenantId);
    await this.policy.setRetention(id, body.days, actorOf(actor));
    return ok(toRetentionView((await this.job.status([id]))[0]!));
  }

  @Put('admin/tenants/:tenantId/legal-hold')
  @AdminPower('tenants')
  @ApiOperation({
    operationId: 'setLegalHold',
    summary: 'Put a tenant’s trail on legal hold',
    description:
      'Nothing of the tenant’s trail is purged while the hold stands (archiving goes on). The reason is kept with the hold; recorded as `retention_changed`.',
  })
  @ApiEnvelope(tenantRetentionSchema, { errors: ['NOT_FOUND'] })
  async hold(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Body({ schema: legalHoldBody }) body: LegalHoldBody,
  ) {
    const id = tenantInScope(actor, tenantId);
    await this.policy.setHold(id, body.reason, actorOf(actor));
    return ok(toRetentionView((await this.job.status([id]))[0]!));
  }

  @Delete('admin/tenants/:tenantId/legal-hold')
  @AdminPower('tenants')
  @ApiOperation({
    operationId: 'releaseLegalHold',
    summary: 'Lift a tenant’s legal hold',
    description: 'Purging resumes at the next run; recorded as `retention_changed`.',
  })
  @ApiEnvelope(tenantRetentionSchema, { errors: ['NOT_FOUND'] })
  async release(@CurrentPrincipal() actor: Principal, @Param('tenantId') tenantId: string) {
    const id = tenantInScope(actor, tenantId);
    await this.policy.setHold(id, null, actorOf(actor));
    return ok(toRetentionView((await this.job.status([id]))[0]!));
  }

  @Post('admin/retention/run')
  @HttpCode(200)
  @AdminPower('tenants')
  @ApiOperation({
    operationId: 'runRetention',
    summary: 'Archive and purge now',
    description:
      'Runs the scheduled job at once (every chain, or `tenantId`): archives closed ranges, then purges archived ranges older than each tenant’s retention unless it is on hold. Answers each tenant’s retention afterwards.',
  })
  @ApiEnvelope([tenantRetentionSchema])
  async run(@CurrentPrincipal() actor: Principal, @Query({ schema: retentionQuery }) q: RetentionQuery) {
    // A tenant's administrator runs it for its own tenant only; platform administrators for any.
    const tenantId = actor.tenantId ? tenantInScope(actor, q.tenantId ?? actor.tenantId) : q.tenantId;
    await this.job.run(tenantId);
    return ok((await this.job.status(tenantId ? [tenantId] : null)).map(toRetentionView));
  }
}
