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
  @ApiOperation({ summary: "The caller's agent types" })
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
  @ApiOperation({ summary: 'The tools bound to an agent type, as jsonschema, openai, anthropic or mcp' })
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
