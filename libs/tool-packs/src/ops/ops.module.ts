import { Module } from '@nestjs/common';
import { ToolkitModule } from '@toolgate/toolkit';
import { opsApiConnector } from './ops-api.connector.js';
import { OpsTools } from './ops.tools.js';

/**
 * The ops pack: `get_service_status`, `read_logs`, `restart_service` and the `ops_api` connector.
 * The tools are found on `OpsTools` by the toolkit's explorer; `forFeature` only adds the connector.
 */
@Module({
  imports: [ToolkitModule.forFeature([], { source: 'OpsToolsModule', connectors: [opsApiConnector] })],
  providers: [OpsTools],
  exports: [OpsTools],
})
export class OpsToolsModule {}
