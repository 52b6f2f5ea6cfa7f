import type { ToolContext, ToolDeclaration } from '@toolgate/toolkit';
import { callOpsApi } from './ops-api.call.js';
import {
  getServiceStatusInput,
  serviceStatusOutput,
  type GetServiceStatusInput,
  type ServiceStatus,
} from './get-service-status.schema.js';

/** `get_service_status`: L0, current health only (docs/tool-design-rules.md §4.1 and 4.2). */
export const getServiceStatusTool: ToolDeclaration<GetServiceStatusInput, ServiceStatus> = {
  name: 'get_service_status',
  description:
    '查询某个服务当前的健康状态（healthy / degraded / down）、实例数和最近一次健康检查时间。' +
    '只在用户问到服务是否正常、有几个实例、最近一次健康检查结果时使用。' +
    '不返回历史数据，也不返回日志（排查具体错误用 read_logs）。',
  inputSchema: getServiceStatusInput,
  keyFields: ['service'],
  outputSchema: serviceStatusOutput,
  risk: { level: 'L0', dataDomains: ['ops.services'], estimatedDurationMs: 300 },
};

/** The body of `get_service_status`: maps the ops API's snake_case answer to the contract. */
export async function getServiceStatus(
  { service }: GetServiceStatusInput,
  ctx: ToolContext,
): Promise<ServiceStatus> {
  const dto = await callOpsApi(ctx, service, (ops, signal) => ops.getService(service, signal));
  return {
    service: dto.name,
    // Checked against the output schema by the executor: an unknown state is an OUTPUT_INVALID.
    status: dto.status as ServiceStatus['status'],
    instances: dto.instances,
    updatedAt: dto.updated_at,
  };
}
