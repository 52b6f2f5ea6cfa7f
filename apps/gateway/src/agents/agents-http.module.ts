import { Module } from '@nestjs/common';
import { AgentsModule } from '@toolgate/agents';
import { AgentsController } from './agents.controller.js';
import { InvokeToolUseCase } from './invoke-tool.usecase.js';

/** The agents audience: tool lists and governed invocation over REST. */
@Module({ imports: [AgentsModule], controllers: [AgentsController], providers: [InvokeToolUseCase] })
export class AgentsHttpModule {}
