import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminPower, CurrentPrincipal, type Principal } from '@toolgate/auth';
import { processingRecordSchema, type ProcessingRecordEntry } from '@toolgate/contract';
import { ProcessingRecords } from '@toolgate/data-protection';
import { ok } from '@toolgate/toolkit';
import { tenantInScope } from './admin-scope.js';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/** CONTRACT.md "Admin": a tenant's processing records (PIPL 第55–56条, ADR 040). */
@ApiTags('admin')
@ApiBearerAuth()
@AdminPower('trail.read')
@Controller('v1/admin')
export class ProcessingRecordsController {
  constructor(private readonly records: ProcessingRecords) {}

  @Get('tenants/:tenantId/processing-records')
  @ApiOperation({
    operationId: 'listProcessingRecords',
    summary: 'A tenant’s processing records',
    description:
      'Per tool: purpose, categories of personal information, recipient and its region, legal basis, the cross-border basis, and how many calls sent classified fields to the recipient. Another tenant’s id is 404 for a tenant admin or a tenant’s auditor.',
  })
  @ApiEnvelope([processingRecordSchema], { errors: ['NOT_FOUND'] })
  async list(@CurrentPrincipal() actor: Principal, @Param('tenantId') tenantId: string) {
    const records: ProcessingRecordEntry[] = await this.records.of(tenantInScope(actor, tenantId));
    return ok(records);
  }
}
