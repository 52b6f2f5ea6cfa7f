// Public surface of the tool packs: the pack modules, the demo backends, connectors, contracts,
// simulators and the demo credentials the tenant files default to.
export { describeErrorBody, JsonHttpClient } from './common/json-http-client.js';
export type {
  JsonHttpClientOptions,
  JsonRequestOptions,
  OutgoingRequest,
  QueryValue,
} from './common/json-http-client.js';
export { LoopbackSimulator, SIMULATOR_STATS_PATH } from './common/loopback-simulator.js';
export type { SimulatorRequest, SimulatorResponse, SimulatorStats } from './common/loopback-simulator.js';
export {
  UpstreamFormatError,
  UpstreamHttpError,
  UpstreamUnreachableError,
} from './common/upstream-errors.js';

export { DEMO_BACKENDS_OPTIONS, DEMO_VARIABLES } from './demo/demo-backends.constants.js';
export type { DemoBackendsOptions } from './demo/demo-backends.constants.js';
export { DemoBackendsModule } from './demo/demo-backends.module.js';
export { DemoBackends } from './demo/demo-backends.service.js';

export {
  DEFAULT_LOG_LEVEL,
  DEFAULT_LOG_LIMIT,
  DEFAULT_LOG_WINDOW,
  DEMO_OPS_TOKEN,
  LEGACY_BATCH_DELAY_MS,
  LOG_LEVELS,
  LOG_WINDOWS,
  MAX_LOG_LIMIT,
  OPS_API_CONNECTOR,
  RESTART_TIMEOUT_MS,
  SERVICE_STATUSES,
} from './ops/ops.constants.js';
export { OpsToolsModule } from './ops/ops.module.js';
export { OpsTools } from './ops/ops.tools.js';
export { OpsApiClient } from './ops/ops-api.client.js';
export type { LogQuery, LogSearchDto, RestartDto, RestartRequest, ServiceDto } from './ops/ops-api.client.js';
export { opsApiConfigSchema, opsApiConnector } from './ops/ops-api.connector.js';
export type { OpsApiConfig } from './ops/ops-api.connector.js';
export { OpsSimulator } from './ops/ops-simulator.js';
export type { OpsSimulatorOptions, OpsSimulatorStats, RestartRecord } from './ops/ops-simulator.js';
export { getServiceStatusTool } from './ops/get-service-status.tool.js';
export type { GetServiceStatusInput, ServiceStatus } from './ops/get-service-status.schema.js';
export { readLogsTool } from './ops/read-logs.tool.js';
export type { ReadLogsInput, ReadLogsOutput } from './ops/read-logs.schema.js';
export { restartServiceTool } from './ops/restart-service.tool.js';
export type { RestartServiceInput, RestartServiceOutput } from './ops/restart-service.schema.js';

export {
  DEMO_NC_APP_KEY,
  DEMO_NC_APP_SECRET,
  DEMO_SAP_CLIENT,
  DEMO_SAP_PASSWORD,
  DEMO_SAP_USERNAME,
  SAP_CONNECTOR,
  YONYOU_NC_CONNECTOR,
} from './erp/erp.constants.js';
export { ErpToolsModule } from './erp/erp.module.js';
export { querySupplierDelivery } from './erp/query-supplier-delivery.tool.js';
export type {
  Delivery,
  ErpSource,
  QuerySupplierDeliveryInput,
  SupplierDeliveryReport,
} from './erp/query-supplier-delivery.schema.js';
export { SapClient } from './erp/sap.client.js';
export type { SapDeliveryRow } from './erp/sap.client.js';
export { sapConfigSchema, sapConnector } from './erp/sap.connector.js';
export type { SapConfig } from './erp/sap.connector.js';
export { SapSimulator } from './erp/sap-simulator.js';
export type { SapSimulatorOptions } from './erp/sap-simulator.js';
export { YonyouNcBusinessError, YonyouNcClient } from './erp/yonyou-nc.client.js';
export type { NcArrivalRow } from './erp/yonyou-nc.client.js';
export { yonyouNcConfigSchema, yonyouNcConnector } from './erp/yonyou-nc.connector.js';
export type { YonyouNcConfig } from './erp/yonyou-nc.connector.js';
export { YonyouNcSimulator } from './erp/yonyou-nc-simulator.js';
export type { YonyouNcSimulatorOptions } from './erp/yonyou-nc-simulator.js';
