import { Module } from '@nestjs/common';
import { AgentsModule } from '@toolgate/agents';
import { McpServerService } from './mcp-server.service.js';

/** Toolgate as an MCP server; the gateway's route feeds it HTTP requests. */
@Module({ imports: [AgentsModule], providers: [McpServerService], exports: [McpServerService, AgentsModule] })
export class McpModule {}
