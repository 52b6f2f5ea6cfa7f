import { Body, Controller, Get, Headers, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AgentFactory } from '@toolgate/agents';
import { CurrentPrincipal, Roles, type Principal } from '@toolgate/auth';
import { ok, type Locale } from '@toolgate/toolkit';
import type { FastifyReply } from 'fastify';
import { RequestLocale } from '../http/request-locale.js';
import {
  invokeBody,
  invokeQuery,
  toolListQuery,
  type InvokeBody,
  type InvokeQuery,
  type ToolListQuery,
} from './agents.dto.js';
import { InvokeToolUseCase } from './invoke-tool.usecase.js';
import { SseStream } from './sse-stream.js';

/** CONTRACT.md "Agents": agent types, their tools in four formats, and governed invocation. */
@ApiTags('agents')
@ApiBearerAuth()
@Roles('agent')
@Controller('v1/agents')
export class AgentsController {
  constructor(
    private readonly agents: AgentFactory,
    private readonly invokeTool: InvokeToolUseCase,
  ) {}

  @Get()
  @ApiOperation({ summary: "The caller's agent types" })
  async list(@CurrentPrincipal() principal: Principal) {
    return ok(await this.agents.agentTypes(principal.tenantId!, principal));
  }

  @Get(':agentType/tools')
  @ApiOperation({ summary: 'The tools bound to an agent type, as jsonschema, openai, anthropic or mcp' })
  async tools(
    @CurrentPrincipal() principal: Principal,
    @Param('agentType') agentType: string,
    @Query({ schema: toolListQuery }) query: ToolListQuery,
    @RequestLocale() locale: Locale,
  ) {
    const agent = await this.agents.create(principal.tenantId!, agentType, principal);
    return ok(agent.describeTools(query.format, locale, query.include === 'deferred'));
  }

  @Post(':agentType/tools/:toolName/invoke')
  @ApiOperation({
    summary:
      'Invoke a bound tool under governance; answers the envelope (SSE with Accept: text/event-stream)',
  })
  async invoke(
    @CurrentPrincipal() principal: Principal,
    @Param('agentType') agentType: string,
    @Param('toolName') toolName: string,
    @Body({ schema: invokeBody }) body: InvokeBody,
    @Query({ schema: invokeQuery }) query: InvokeQuery,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers('accept') accept: string | undefined,
    @RequestLocale() locale: Locale,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const command = {
      tenantId: principal.tenantId!,
      agentType,
      toolName,
      principal,
      body,
      locale,
      view: query.view,
      idempotencyKey,
    };
    if (accept?.includes('text/event-stream')) {
      // Resolve the agent and tool first so unknown names still answer 404 as JSON.
      (await this.agents.create(command.tenantId, agentType, principal)).tool(toolName);
      const stream = new SseStream(reply);
      const answer = await this.invokeTool.execute({ ...command, onEvent: stream.onEvent });
      stream.end(answer.callId, answer.envelope);
      return;
    }
    const answer = await this.invokeTool.execute(command);
    reply.status(answer.status).header('x-call-id', answer.callId);
    return answer.envelope;
  }
}
