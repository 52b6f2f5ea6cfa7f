import { Body, Controller, Get, HttpCode, Logger, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  auditEvidenceQuerySchema,
  AuditCallQueries,
  auditCallsQuerySchema,
  auditExportQuerySchema,
  auditListQuerySchema,
  auditPrincipalsQuerySchema,
  AuditQueries,
  localizedVerification,
  VerifyJobs,
  type AuditCallsQuery,
  type AuditPrincipalsQuery,
  auditVerifyQuerySchema,
  type AuditEvidenceQuery,
  type AuditExportQuery,
  type AuditListQuery,
  type AuditVerifyQuery,
} from '@toolgate/audit';
import { AdminPower, canAccessTenant, CurrentPrincipal, type Principal } from '@toolgate/auth';
import type { Locale } from '@toolgate/toolkit';
import { RequestLocale } from '../http/request-locale.js';
import {
  auditCallPageSchema,
  auditEventViewSchema,
  auditPublicKeysSchema,
  auditPageSchema,
  auditPrincipalSchema,
  callStorySchema,
  checkpointExportSchema,
  checkpointSchema,
  checkpointTenantQuery,
  incompleteCallSchema,
  verificationSchema,
  verifyJobSchema,
  type CheckpointTenantQuery,
} from '@toolgate/contract';
import { ErrorCode, ok, ToolgateError } from '@toolgate/toolkit';
import type { FastifyReply } from 'fastify';
import { AdminActs } from '../http/admin-acts.js';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/**
 * CONTRACT.md "Audit": compliance reads the trail, exports it and proves nobody edited it.
 * A tenant's auditor sees its tenant only; a tenantless auditor (and platform admins) see all.
 * Tenant admins read their own tenant's trail; only auditors and platform admins sign checkpoints.
 */
@ApiTags('audit')
@ApiBearerAuth()
@AdminPower('trail.read')
@Controller('v1/audit')
export class AuditController {
  private readonly logger = new Logger('AuditEvidence');

  constructor(
    private readonly audit: AuditQueries,
    private readonly jobs: VerifyJobs,
    private readonly calls: AuditCallQueries,
    private readonly acts: AdminActs,
  ) {}

  @Get('calls')
  @ApiOperation({
    operationId: 'listAuditCalls',
    summary: 'Calls, newest first: one row per call',
    description:
      'Each call with its tenant, agent type, tool, face, target (the tool’s declared key fields, e.g. `service=payment-api`), redacted input, outcome, requester and approvers by name, times and run. Filters on every column, on a person (requester or approver, by name or id) and on declared input values; keyset cursor. A projection of the trail, a moment behind it.',
  })
  @ApiEnvelope(auditCallPageSchema)
  async listCalls(
    @CurrentPrincipal() p: Principal,
    @Query({ schema: auditCallsQuerySchema }) query: AuditCallsQuery,
  ) {
    return ok(await this.calls.list(query, p.tenantId));
  }

  @Get('principals')
  @ApiOperation({
    operationId: 'listAuditPrincipals',
    summary: 'Names of the keys and people in the trail',
    description:
      'The keys (from their `key_created` events) and approvers the trail names, to map a name to an id and back. Names are not secrets; nothing else about a key is shown.',
  })
  @ApiEnvelope([auditPrincipalSchema])
  async principals(
    @CurrentPrincipal() p: Principal,
    @Query({ schema: auditPrincipalsQuerySchema }) query: AuditPrincipalsQuery,
  ) {
    return ok(await this.calls.principals(query, p.tenantId));
  }

  @Get('events')
  @ApiOperation({
    operationId: 'listAuditEvents',
    summary: 'Audit events, newest first',
    description:
      'Filtered by tenant, tool, risk level, actor, status, code and time, with a keyset cursor that stays stable while rows are added. Inputs are redacted; a tenant’s auditor sees its tenant only.',
  })
  @ApiEnvelope(auditPageSchema)
  async events(
    @CurrentPrincipal() p: Principal,
    @Query({ schema: auditListQuerySchema }) query: AuditListQuery,
  ) {
    return ok(await this.audit.list(query, p.tenantId));
  }

  @Get('events/:id')
  @ApiOperation({
    operationId: 'getAuditEvent',
    summary: 'One audit event',
    description: 'The event with its chain links (`prevHash`, `hash`). Another tenant’s event is 404.',
  })
  @ApiEnvelope(auditEventViewSchema, { errors: ['NOT_FOUND'] })
  async event(@CurrentPrincipal() p: Principal, @Param('id') id: string) {
    return ok(await this.audit.event(id, p.tenantId));
  }

  @Get('calls/:callId')
  @ApiOperation({
    operationId: 'getCallStory',
    summary: 'The whole story of a call',
    description:
      'Every event of one call in order: started, approval requested and decided, finished or late completion; `complete` says whether it has its closing event.',
  })
  @ApiEnvelope(callStorySchema, { errors: ['NOT_FOUND'] })
  async call(@CurrentPrincipal() p: Principal, @Param('callId') callId: string) {
    return ok(await this.audit.call(callId, p.tenantId));
  }

  @Get('incomplete')
  @ApiOperation({
    operationId: 'listIncompleteCalls',
    summary: 'Calls that started and have not finished',
    description:
      'Calls with a `started` event and no closing event yet, with the gateway instance that ran them.',
  })
  @ApiEnvelope([incompleteCallSchema])
  async incomplete(@CurrentPrincipal() p: Principal) {
    return ok(await this.audit.incomplete(p.tenantId));
  }

  @Get('export')
  @AdminPower('trail.export')
  @ApiOperation({
    operationId: 'exportAuditEvents',
    summary: 'Export audit events',
    description:
      'The events of the same filters as a file, streamed: CSV (UTF-8 with BOM, opens in Excel; cells holding separators, quotes or line breaks are quoted) or JSON Lines. Another tenant’s trail is 403.',
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
    // On the record before a byte leaves (and before hijack, so a failure is still an envelope).
    await this.acts.exported(p, query);
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

  @Get('evidence')
  @AdminPower('trail.export')
  @ApiOperation({
    operationId: 'getAuditEvidence',
    summary: 'An evidence file of one tenant’s trail',
    description:
      'A ZIP that verifies with no gateway, database or secret (`npx toolgate-verify`): the events of the range (widened to whole checkpoint stretches) as JSON Lines with every chain field, the checkpoints covering them, the public keys, a signed manifest with the SHA-256 of each file, and a README. Signs a checkpoint first; a chain that does not verify gets no evidence (409 AUDIT_CHAIN_BROKEN).',
  })
  @ApiEnvelope(null, { binary: ['application/zip'], errors: ['AUDIT_CHAIN_BROKEN'] })
  async evidence(
    @CurrentPrincipal() p: Principal,
    @Query({ schema: auditEvidenceQuerySchema }) query: AuditEvidenceQuery,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    // Refused (broken chain, no tenant) while an error can still be an envelope; on the record
    // before a byte leaves, with the range and count the file will hold (its size is not known
    // yet: it is streamed, ADR 046).
    const plan = await this.audit.evidencePlan(query, p.tenantId);
    const expected = this.audit.expectedEvidence(plan);
    await this.acts.evidenceDownloaded(p, expected, null);
    const stamp = expected.generatedAt.replace(/[:.]/g, '-');
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'application/zip',
      'content-disposition': `attachment; filename="toolgate-evidence-${encodeURIComponent(expected.tenantId)}-${stamp}.zip"`,
      'cache-control': 'no-store',
    });
    try {
      await this.audit.writeEvidence(plan, reply.raw);
      reply.raw.end();
    } catch (err) {
      // Headers are gone: a cut connection is how the client learns the file is incomplete (the
      // ZIP has no end record then, and no manifest signature).
      this.logger.error(`evidence of ${plan.tenantId} failed mid-stream: ${(err as Error).message}`);
      reply.raw.destroy(err as Error);
    }
  }

  @Get('verify')
  @AdminPower('trail.verify')
  @ApiOperation({
    operationId: 'verifyAuditChain',
    summary: 'Verify the audit chain',
    description:
      'Recomputes each tenant’s chain against its signed checkpoints over one consistent view and names the first broken event, if any.',
  })
  @ApiEnvelope(verificationSchema)
  async verify(
    @CurrentPrincipal() p: Principal,
    @Query({ schema: auditVerifyQuerySchema }) query: AuditVerifyQuery,
    @RequestLocale() locale: Locale,
  ) {
    const verification = await this.audit.verify(query, p.tenantId);
    await this.acts.verified(p, { ...query }, verification);
    // Problem texts in the caller's language (issue 23); the trail and the logs keep English.
    return ok(localizedVerification(verification, locale));
  }

  @Post('verify-jobs')
  @AdminPower('trail.verify')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'startVerifyJob',
    summary: 'Verify the whole chain in the background',
    description:
      'Starts a full verification of the tenant given (or every tenant a reader of all tenants may see) and answers at once with the job; poll it for progress and the result. Jobs are stored: any gateway answers them, and a job whose gateway stopped is answered `failed`.',
  })
  @ApiEnvelope(verifyJobSchema, { status: 202 })
  async startVerifyJob(
    @CurrentPrincipal() p: Principal,
    @Body({ schema: checkpointTenantQuery }) body: CheckpointTenantQuery,
  ) {
    if (p.tenantId !== null && body.tenantId !== undefined && body.tenantId !== p.tenantId)
      throw new ToolgateError(ErrorCode.FORBIDDEN);
    return ok(
      await this.jobs.start(p.tenantId, p.tenantId ?? body.tenantId ?? null, (job) =>
        this.acts.jobFinished(p, job),
      ),
    );
  }

  @Get('verify-jobs/:id')
  @AdminPower('trail.verify')
  @ApiOperation({
    operationId: 'getVerifyJob',
    summary: 'A background verification',
    description:
      'Its progress (`checked` of `total` events, at most a second behind on another gateway) and, once done, the verification; kept a week after it ends. A job whose gateway stopped before it finished is `failed`.',
  })
  @ApiEnvelope(verifyJobSchema, { errors: ['NOT_FOUND'] })
  async verifyJob(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ) {
    const job = await this.jobs.get(id, p.tenantId);
    return ok(job.result ? { ...job, result: localizedVerification(job.result, locale) } : job);
  }

  @Get('checkpoints')
  @ApiOperation({
    operationId: 'listCheckpoints',
    summary: 'Signed checkpoints and the public key',
    description:
      'The signed chain heads and the key to check them with, to anchor the trail outside the gateway.',
  })
  @ApiEnvelope(checkpointExportSchema)
  async checkpoints(
    @CurrentPrincipal() p: Principal,
    @Query({ schema: checkpointTenantQuery }) query: CheckpointTenantQuery,
  ) {
    return ok(await this.audit.checkpointsOf(p.tenantId, query.tenantId));
  }

  @Get('public-keys')
  @ApiOperation({
    operationId: 'listAuditPublicKeys',
    summary: 'The keys checkpoints are signed with',
    description:
      'Ed25519 public keys (SPKI PEM) with their key ids, to check checkpoints and evidence files outside the gateway (`npx toolgate-verify`).',
  })
  @ApiEnvelope(auditPublicKeysSchema)
  publicKeys() {
    return ok(this.audit.publicKeys());
  }

  @Post('checkpoints')
  @AdminPower('checkpoints')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'signCheckpoints',
    summary: 'Sign checkpoints now',
    description:
      'Signs the chain head of the tenant given, or of every tenant whose chain grew. A chain that does not verify is not signed (409 AUDIT_CHAIN_BROKEN).',
  })
  @ApiEnvelope([checkpointSchema], { status: 201, errors: ['AUDIT_CHAIN_BROKEN'] })
  async checkpointNow(
    @CurrentPrincipal() p: Principal,
    @Body({ schema: checkpointTenantQuery }) body: CheckpointTenantQuery,
  ) {
    return ok(await this.audit.checkpointNow(p.tenantId, body.tenantId));
  }
}
