import { z } from 'zod';
import { SERVICE_STATUSES } from './ops.constants.js';
import { serviceNameField } from './service-name.schema.js';

/** Input of `get_service_status`. */
export const getServiceStatusInput = z.object({ service: serviceNameField });

/** Output of `get_service_status`. */
export const serviceStatusOutput = z.object({
  service: z.string(),
  status: z.enum(SERVICE_STATUSES).describe('healthy 正常 · degraded 降级 · down 不可用'),
  instances: z.number().int().min(0).describe('当前实例数'),
  updatedAt: z.string().describe('最近一次健康检查时间，ISO 8601'),
});

/** The validated input. */
export type GetServiceStatusInput = z.output<typeof getServiceStatusInput>;
/** What the tool returns. */
export type ServiceStatus = z.output<typeof serviceStatusOutput>;
