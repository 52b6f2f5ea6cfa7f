import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApprovalService } from '@toolgate/approvals';
import { AuditCallQueries } from '@toolgate/audit';
import { CallReaderService } from '@toolgate/calls';
import { CurrentPrincipal, Roles, type Principal } from '@toolgate/auth';
import {
  approvalContextSchema,
  approvalListQuery,
  approvalViewSchema,
  approveBody,
  callReadSchema,
  decisionResultSchema,
  denyBody,
  type ApprovalListQuery,
  type ApproveBody,
  type DenyBody,
} from '@toolgate/contract';
import { ok } from '@toolgate/toolkit';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/** CONTRACT.md "Approvals": the inbox and the decisions. */
@ApiTags('approvals')
@ApiBearerAuth()
@Roles('approver', 'tenant_admin', 'platform_admin')
@Controller('v1/approvals')
export class ApprovalsController {
  constructor(
    private readonly approvals: ApprovalService,
    private readonly calls: AuditCallQueries,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listApprovals',
    summary: "Approvals of the caller's tenant, newest first",
    description:
      'Filtered by `status` (pending, approved, denied, expired). Inputs and prompts are shown redacted, as the audit trail stores them.',
  })
  @ApiEnvelope([approvalViewSchema])
  async list(@CurrentPrincipal() p: Principal, @Query({ schema: approvalListQuery }) q: ApprovalListQuery) {
    return ok(await this.approvals.list(p, q.status, q.limit));
  }

  @Get(':approvalId')
  @ApiOperation({
    operationId: 'getApproval',
    summary: 'One approval',
    description:
      'The approval with the call it holds (redacted input and prompt), the decisions so far and when it expires. Another tenant’s approval is 404.',
  })
  @ApiEnvelope(approvalViewSchema, { errors: ['NOT_FOUND'] })
  async get(@CurrentPrincipal() p: Principal, @Param('approvalId') id: string) {
    return ok(await this.approvals.get(p, id));
  }

  @Get(':approvalId/context')
  @ApiOperation({
    operationId: 'getApprovalContext',
    summary: 'What an approver decides with',
    description:
      'The requester by name, the agent run that asked, the call as the audit trail tells it (its outcome once decided) and up to 5 earlier decided calls of the same tool on the same target. Another tenant’s approval is 404.',
  })
  @ApiEnvelope(approvalContextSchema, { errors: ['NOT_FOUND'] })
  async context(@CurrentPrincipal() p: Principal, @Param('approvalId') id: string) {
    const approval = await this.approvals.get(p, id);
    return ok(await this.calls.approvalContext(approval));
  }

  @Post(':approvalId/approve')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'approveApproval',
    summary: 'Approve a parked call',
    description:
      'Once enough approvers agree, the call runs (exactly once) and its outcome is answered with the approval. The requester of the call, the owner of the requesting key, and a person deciding twice are refused.',
  })
  @ApiEnvelope(decisionResultSchema, { errors: ['NOT_FOUND', 'APPROVAL_EXPIRED', 'APPROVAL_DENIED'] })
  async approve(
    @CurrentPrincipal() p: Principal,
    @Param('approvalId') id: string,
    @Body({ schema: approveBody }) body: ApproveBody,
  ) {
    return ok(await this.approvals.decide(p, id, 'approve', body.comment));
  }

  @Post(':approvalId/deny')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'denyApproval',
    summary: 'Deny a parked call',
    description:
      'Denies with a comment (more than whitespace); the tool never runs and the call reads `denied`.',
  })
  @ApiEnvelope(decisionResultSchema, { errors: ['NOT_FOUND', 'APPROVAL_EXPIRED', 'APPROVAL_DENIED'] })
  async deny(
    @CurrentPrincipal() p: Principal,
    @Param('approvalId') id: string,
    @Body({ schema: denyBody }) body: DenyBody,
  ) {
    return ok(await this.approvals.decide(p, id, 'deny', body.comment));
  }
}

/** `GET /v1/calls/:callId`: the state of an L1+ or parked call and, once there is one, its envelope. */
@ApiTags('agents')
@ApiBearerAuth()
@Controller('v1/calls')
export class CallsController {
  constructor(private readonly calls: CallReaderService) {}

  @Get(':callId')
  @ApiOperation({
    operationId: 'getCall',
    summary: 'The state of a call, and its result once it has one',
    description:
      'A call of the caller’s tenant: pending_approval, running, succeeded, failed, denied, expired or interrupted. The full result goes to the key that made the call and to admins; other readers get it redacted (`redacted: true`).',
  })
  @ApiEnvelope(callReadSchema, { errors: ['NOT_FOUND'] })
  async get(@CurrentPrincipal() p: Principal, @Param('callId') callId: string) {
    return ok(await this.calls.view(p, callId));
  }
}
