import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SiemForwarder } from '@toolgate/audit';
import { AdminPower, CurrentPrincipal, type Principal } from '@toolgate/auth';
import {
  auditDeadLettersQuery,
  auditDeadLettersSchema,
  auditSinksSchema,
  type AuditDeadLettersQuery,
  type AuditSinks,
} from '@toolgate/contract';
import { ErrorCode, ok, ToolgateError } from '@toolgate/toolkit';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/** Sinks carry every tenant's trail: only the platform's own auditors and admins see them. */
function platformOnly(p: Principal): void {
  if (p.tenantId !== null) throw new ToolgateError(ErrorCode.FORBIDDEN);
}

/** CONTRACT.md "Audit": the SIEM sinks the trail streams to (ADR 038). */
@ApiTags('audit')
@ApiBearerAuth()
@AdminPower('trail.sinks')
@Controller('v1/audit/sinks')
export class AuditSinksController {
  constructor(private readonly siem: SiemForwarder) {}

  @Get()
  @ApiOperation({
    operationId: 'listAuditSinks',
    summary: 'SIEM sinks and how far each is',
    description:
      'Each configured sink with its lag (committed events not yet delivered), dead letters, the gateway holding its lease, and what the answering gateway sent, failed and dead-lettered since it started. Platform auditors and admins only.',
  })
  @ApiEnvelope(auditSinksSchema, { errors: ['FORBIDDEN'] })
  async list(@CurrentPrincipal() p: Principal) {
    platformOnly(p);
    return ok({ sinks: await this.siem.status() } satisfies AuditSinks);
  }

  @Get(':name/dead-letters')
  @ApiOperation({
    operationId: 'listAuditSinkDeadLetters',
    summary: 'Events a sink’s receiver refused',
    description:
      'Newest first: tenant, seq and hash of each event (read it with `GET /v1/audit/events`), the reason and the attempts. Platform auditors and admins only.',
  })
  @ApiEnvelope(auditDeadLettersSchema, { errors: ['FORBIDDEN', 'NOT_FOUND'] })
  async deadLetters(
    @CurrentPrincipal() p: Principal,
    @Param('name') name: string,
    @Query({ schema: auditDeadLettersQuery }) query: AuditDeadLettersQuery,
  ) {
    platformOnly(p);
    const letters = await this.siem.deadLetters(name, query.limit, query.tenantId);
    if (!letters)
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `sink ${name.slice(0, 64)}` } });
    return ok({ deadLetters: letters.map((d) => ({ ...d, failedAt: d.failedAt.toISOString() })) });
  }
}
