import { defineToolContract } from '@toolgate/toolkit';
import { z } from 'zod';
import { callOpsApi } from './ops-api.call.js';
import { SERVICE_STATUSES } from './ops.constants.js';
import { serviceNameField } from './service-name.schema.js';

/** Output of `get_service_status`. */
const serviceStatusOutput = z.object({
  service: z.string(),
  status: z.enum(SERVICE_STATUSES).describe('healthy 正常 · degraded 降级 · down 不可用'),
  instances: z.number().int().min(0).describe('当前实例数'),
  updatedAt: z.string().describe('最近一次健康检查时间，ISO 8601'),
});

/** What the tool returns. */
export type ServiceStatus = z.output<typeof serviceStatusOutput>;

/**
 * `get_service_status`: L0, current health only (docs/tool-design-rules.md §4.1 and 4.2). The body
 * maps the ops API's snake_case answer to the contract.
 */
export const getServiceStatus = defineToolContract({
  name: 'get_service_status',
  description:
    '查询某个服务当前的健康状态（healthy / degraded / down）、实例数和最近一次健康检查时间。' +
    '只在用户问到服务是否正常、有几个实例、最近一次健康检查结果时使用。' +
    '不返回历史数据，也不返回日志（排查具体错误用 read_logs）。',
  inputSchema: z.object({ service: serviceNameField }),
  keyFields: ['service'],
  outputSchema: serviceStatusOutput,
  risk: { level: 'L0', dataDomains: ['ops.services'], estimatedDurationMs: 300 },
}).implement(async ({ service }, ctx) => {
  const dto = await callOpsApi(ctx, service, (ops, signal) => ops.getService(service, signal));
  return {
    service: dto.name,
    // Checked against the output schema by the executor: an unknown state is an OUTPUT_INVALID.
    status: dto.status as ServiceStatus['status'],
    instances: dto.instances,
    updatedAt: dto.updated_at,
  };
});
