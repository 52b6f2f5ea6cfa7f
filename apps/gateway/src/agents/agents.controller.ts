import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AgentFactory } from '@toolgate/agents';
import { CurrentPrincipal, Roles, type Principal } from '@toolgate/auth';
import { ModelProviders } from '@toolgate/models';
import { ok, type Locale } from '@toolgate/toolkit';
import { RequestLocale } from '../http/request-locale.js';
import {
  agentTypeSummarySchema,
  checkToolCallBody,
  toolCallCheckSchema,
  toolListItemSchema,
  type CheckToolCallBody,
  toolListQuery,
  type ToolListQuery,
} from '@toolgate/contract';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';
import { CheckToolCallUseCase } from './check-tool-call.usecase.js';

/** CONTRACT.md "Agents": agent types and their tools in four formats (invoke: see invoke.route.ts). */
@ApiTags('agents')
@ApiBearerAuth()
@Roles('agent')
@Controller('v1/agents')
export class AgentsController {
  constructor(
    private readonly agents: AgentFactory,
    private readonly models: ModelProviders,
    private readonly checks: CheckToolCallUseCase,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listAgentTypes',
    summary: "The caller's agent types",
    description:
      'Each agent type the key may use: its description, version, how many tools are bound, and the model its runs think with (`offline: true` is the built-in demo planner, which uses no language model).',
  })
  @ApiEnvelope([agentTypeSummarySchema])
  async list(@CurrentPrincipal() principal: Principal) {
    return ok(
      await this.agents.agentTypes(principal.tenantId!, principal, (model) => {
        const ref = this.models.resolve(model);
        return { name: `${ref.provider}/${ref.model}`, ...this.models.describe(ref) };
      }),
    );
  }

  @Get(':agentType/tools')
  @ApiOperation({
    operationId: 'listAgentTools',
    summary: 'The tools bound to an agent type',
    description:
      'The bound tools in the format an agent framework reads: `jsonschema` (with risk and time limit), `openai`, `anthropic` or `mcp`. Deferred tools only with `include=deferred`. Another tenant’s agent type, or one the key may not use, is 404.',
  })
  @ApiEnvelope([toolListItemSchema], { errors: ['NOT_FOUND'] })
  async tools(
    @CurrentPrincipal() principal: Principal,
    @Param('agentType') agentType: string,
    @Query({ schema: toolListQuery }) query: ToolListQuery,
    @RequestLocale() locale: Locale,
  ) {
    const agent = await this.agents.create(principal.tenantId!, agentType, principal);
    return ok(agent.describeTools(query.format, locale, query.include === 'deferred'));
  }

  @Post(':agentType/tools/:toolName/check')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'checkToolCall',
    summary: 'What a call of a tool with this input would meet',
    description:
      "The tenant's rules and the tool's approval policy decided on the input, without running, parking or recording anything: the rule that decided (id, binding version, outcome) and what would happen next — `run`, `park` (for `approvers` approvers) or `refuse` (with the code and the reason). An unbound tool, or another tenant's agent type, is 404.",
  })
  @ApiEnvelope(toolCallCheckSchema, { errors: ['NOT_FOUND', 'TOOL_NOT_FOUND', 'INVALID_INPUT'] })
  async check(
    @CurrentPrincipal() principal: Principal,
    @Param('agentType') agentType: string,
    @Param('toolName') toolName: string,
    @Body({ schema: checkToolCallBody }) body: CheckToolCallBody,
    @RequestLocale() locale: Locale,
  ) {
    return ok(
      await this.checks.check({
        tenantId: principal.tenantId!,
        agentType,
        toolName,
        principal,
        input: body.input,
        locale,
      }),
    );
  }
}
