import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminPower, CurrentPrincipal, type Principal } from '@toolgate/auth';
import { processingRecordSchema, type ProcessingRecordEntry } from '@toolgate/contract';
import { ProcessingRecords } from '@toolgate/data-protection';
import { ok } from '@toolgate/toolkit';
import type { FastifyReply } from 'fastify';
import { AdminActs } from '../http/admin-acts.js';
import { tenantInScope } from './admin-scope.js';
import { processingRecordsCsv } from './processing-records-csv.js';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/** CONTRACT.md "Admin": a tenant's processing records (PIPL 第55–56条, ADR 040, 048). */
@ApiTags('admin')
@ApiBearerAuth()
@AdminPower('trail.read')
@Controller('v1/admin')
export class ProcessingRecordsController {
  constructor(
    private readonly records: ProcessingRecords,
    private readonly acts: AdminActs,
  ) {}

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

  @Get('tenants/:tenantId/processing-records/export')
  @ApiOperation({
    operationId: 'exportProcessingRecords',
    summary: 'A tenant’s processing records as CSV',
    description:
      'The records of the listing as a file for Excel (UTF-8 with BOM; a cell starting with = + - @, a tab or CR is prefixed with an apostrophe). The same roles as the listing; recorded as `processing_records_exported` before it is sent. Another tenant’s id is 404 for a tenant admin or a tenant’s auditor.',
  })
  @ApiEnvelope(null, { text: ['text/csv'], errors: ['NOT_FOUND'] })
  async export(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const id = tenantInScope(actor, tenantId);
    const records = await this.records.of(id);
    // On the record before a byte leaves: a trail that cannot record the export does not export.
    await this.acts.processingRecordsExported(actor, id, records.length);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="toolgate-processing-records-${encodeURIComponent(id)}-${stamp}.csv"`,
      )
      .header('cache-control', 'no-store');
    return processingRecordsCsv(records);
  }
}
