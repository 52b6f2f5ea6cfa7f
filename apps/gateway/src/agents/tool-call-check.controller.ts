import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminPower, ApiKeyService, CurrentPrincipal, type Principal } from '@toolgate/auth';
import { adminCheckToolCallBody, toolCallCheckSchema, type AdminCheckToolCallBody } from '@toolgate/contract';
import { ErrorCode, ok, ToolgateError, type Locale } from '@toolgate/toolkit';
import { tenantInScope } from '../admin/admin-scope.js';
import { RequestLocale } from '../http/request-locale.js';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';
import { CheckToolCallUseCase } from './check-tool-call.usecase.js';

/**
 * The console's "try it" on the bindings editor (issue 26): what a call of a tool with this input
 * would meet under the tenant's saved binding and rules, asked by whoever edits the bindings, as
 * one of the tenant's agent keys or as any agent. Nothing runs, parks or is recorded.
 */
@ApiTags('admin')
@ApiBearerAuth()
@Controller('v1/admin/tenants/:tenantId/agent-types/:agentType/tools/:toolName/check')
export class ToolCallCheckController {
  constructor(
    private readonly checks: CheckToolCallUseCase,
    private readonly keys: ApiKeyService,
  ) {}

  @Post()
  @HttpCode(200)
  @AdminPower('bindings')
  @ApiOperation({
    operationId: 'checkToolCallForTenant',
    summary: 'What a call would meet, asked by an admin',
    description:
      "As `POST /v1/agents/:agentType/tools/:toolName/check`, for the bindings' editors: the tenant's rules and the tool's approval policy decided on the input, as the agent key `keyId` of the tenant (its role and agent types) or, without one, as any agent key. Nothing runs, parks or is recorded. Another tenant's (for a tenant admin), an unknown agent type or key is 404.",
  })
  @ApiEnvelope(toolCallCheckSchema, { errors: ['NOT_FOUND', 'TOOL_NOT_FOUND', 'INVALID_INPUT'] })
  async check(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('agentType') agentType: string,
    @Param('toolName') toolName: string,
    @Body({ schema: adminCheckToolCallBody }) body: AdminCheckToolCallBody,
    @RequestLocale() locale: Locale,
  ) {
    const tenant = tenantInScope(actor, tenantId);
    const principal = await this.decideAs(actor, tenant, body.keyId);
    return ok(
      await this.checks.check({
        tenantId: tenant,
        agentType,
        toolName,
        principal,
        input: body.input,
        locale,
      }),
    );
  }

  /** The agent key asked about (one the actor may see, of this tenant), or any agent of it. */
  private async decideAs(actor: Principal, tenantId: string, keyId: string | undefined): Promise<Principal> {
    if (keyId === undefined)
      return {
        principalType: 'api_key',
        principalId: 'any-agent-key',
        role: 'agent',
        tenantId,
        agentTypes: null,
        name: 'any agent key',
      };
    const key = (await this.keys.list(actor)).find(
      (k) => k.id === keyId && k.tenantId === tenantId && k.role === 'agent' && !k.revokedAt,
    );
    if (!key) throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `agent key ${keyId}` } });
    return {
      principalType: 'api_key',
      principalId: key.id,
      role: key.role,
      tenantId,
      agentTypes: key.agentTypes,
      name: key.name,
    };
  }
}
