import { Module } from '@nestjs/common';
import { AgentsModule } from '@toolgate/agents';
import { AgentsController } from './agents.controller.js';
import { CheckToolCallUseCase } from './check-tool-call.usecase.js';
import { InvokeToolUseCase } from './invoke-tool.usecase.js';
import { ToolCallCheckController } from './tool-call-check.controller.js';

/** The agents audience: tool lists, checks of a call against the rules, and governed invocation over REST. */
@Module({
  imports: [AgentsModule],
  controllers: [AgentsController, ToolCallCheckController],
  providers: [InvokeToolUseCase, CheckToolCallUseCase],
})
export class AgentsHttpModule {}
