import { Module } from '@nestjs/common';
import { ToolkitModule } from '@toolgate/toolkit';
import { getServiceStatus } from './get-service-status.tool.js';
import { opsApiConnector } from './ops-api.connector.js';
import { readLogs } from './read-logs.tool.js';
import { restartService } from './restart-service.tool.js';

/**
 * The ops pack: `get_service_status`, `read_logs`, `restart_service` (one `.tool.ts` file each)
 * and the `ops_api` connector.
 */
@Module({
  imports: [
    ToolkitModule.forFeature([getServiceStatus, readLogs, restartService], {
      source: 'OpsToolsModule',
      connectors: [opsApiConnector],
    }),
  ],
})
export class OpsToolsModule {}
