import { Module } from '@nestjs/common';
import { McpModule } from '@toolgate/mcp';

/** The MCP audience: `/mcp/:agentType` (a raw Fastify route, see mcp.route.ts) over the MCP server. */
@Module({ imports: [McpModule] })
export class McpHttpModule {}
