import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AgentFactory } from '@toolgate/agents';
import { CurrentPrincipal, Roles, type Principal } from '@toolgate/auth';
import { ModelProviders } from '@toolgate/models';
import { ok, type Locale } from '@toolgate/toolkit';
import { RequestLocale } from '../http/request-locale.js';
import {
  agentTypeSummarySchema,
  toolListItemSchema,
  toolListQuery,
  type ToolListQuery,
} from '@toolgate/contract';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/** CONTRACT.md "Agents": agent types and their tools in four formats (invoke: see invoke.route.ts). */
@ApiTags('agents')
@ApiBearerAuth()
@Roles('agent')
@Controller('v1/agents')
export class AgentsController {
  constructor(
    private readonly agents: AgentFactory,
    private readonly models: ModelProviders,
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
}
