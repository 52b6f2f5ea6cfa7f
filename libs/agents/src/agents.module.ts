import { Module } from '@nestjs/common';
import { AgentFactory } from './agent-factory.js';

/** The agent factory (and, later, the agent runtime). Needs TenancyModule and ToolkitModule. */
@Module({ providers: [AgentFactory], exports: [AgentFactory] })
export class AgentsModule {}
