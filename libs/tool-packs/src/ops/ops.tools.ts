import { Injectable } from '@nestjs/common';
import { Tool, type ToolContext } from '@toolgate/toolkit';
import { getServiceStatus, getServiceStatusTool } from './get-service-status.tool.js';
import type { GetServiceStatusInput, ServiceStatus } from './get-service-status.schema.js';
import { readLogs, readLogsTool } from './read-logs.tool.js';
import type { ReadLogsInput, ReadLogsOutput } from './read-logs.schema.js';
import { restartService, restartServiceTool } from './restart-service.tool.js';
import type { RestartServiceInput, RestartServiceOutput } from './restart-service.schema.js';

/**
 * The ops tools as `@Tool` methods: the decorator style of the toolkit, next to the ERP pack's
 * `defineToolContract` style. Each method is one line; the tool lives in its `.tool.ts` file.
 * Called directly from other code in the process, a method still goes through the governed
 * pipeline (validation, approval, audit, time limit) and resolves to the tool's data.
 */
@Injectable()
export class OpsTools {
  @Tool(getServiceStatusTool)
  getServiceStatus(input: GetServiceStatusInput, ctx: ToolContext): Promise<ServiceStatus> {
    return getServiceStatus(input, ctx);
  }

  @Tool(readLogsTool)
  readLogs(input: ReadLogsInput, ctx: ToolContext): Promise<ReadLogsOutput> {
    return readLogs(input, ctx);
  }

  @Tool(restartServiceTool)
  restartService(input: RestartServiceInput, ctx: ToolContext): Promise<RestartServiceOutput> {
    return restartService(input, ctx);
  }
}
