// Every export is public API of @toolgate/tool-packs: the pack modules the gateway loads, the demo backends module,
// and the connectors (with their client types) a tool author reuses to reach the same upstreams.
// Simulators, demo credentials and the demo service are for tests: `@toolgate/tool-packs/testing`.
export { TOOL_PACKS, ToolPacksModule } from './tool-packs.module.js';
export { DemoBackendsModule } from './demo/demo-backends.module.js';

export { OpsToolsModule } from './ops/ops.module.js';
export { opsApiConnector } from './ops/ops-api.connector.js';
export type { OpsApiConfig } from './ops/ops-api.connector.js';
export type { OpsApiClient } from './ops/ops-api.client.js';

export { ErpToolsModule } from './erp/erp.module.js';
export { sapConnector } from './erp/sap.connector.js';
export type { SapConfig } from './erp/sap.connector.js';
export type { SapClient } from './erp/sap.client.js';
export { yonyouNcConnector } from './erp/yonyou-nc.connector.js';
export type { YonyouNcConfig } from './erp/yonyou-nc.connector.js';
export type { YonyouNcClient } from './erp/yonyou-nc.client.js';
