// Test entry point of the tool packs (`@toolgate/tool-packs/testing`): the loopback simulators the
// demo backends run, the demo service that owns them, and the credentials the simulators accept.
// Production code imports `@toolgate/tool-packs`; only specs and benchmarks import this.
export { DemoBackends } from './demo/demo-backends.service.js';
export { DEMO_VARIABLES } from './demo/demo-backends.constants.js';

export { LoopbackSimulator } from './common/loopback-simulator.js';
export type { SimulatorRequest, SimulatorResponse, SimulatorStats } from './common/loopback-simulator.js';

export { DEMO_OPS_TOKEN } from './ops/ops.constants.js';
export { OpsSimulator } from './ops/ops-simulator.js';
export type { OpsSimulatorOptions, OpsSimulatorStats, RestartRecord } from './ops/ops-simulator.js';

export {
  DEMO_NC_APP_KEY,
  DEMO_NC_APP_SECRET,
  DEMO_SAP_CLIENT,
  DEMO_SAP_PASSWORD,
  DEMO_SAP_USERNAME,
} from './erp/erp.constants.js';
export { SapSimulator } from './erp/sap-simulator.js';
export type { SapSimulatorOptions } from './erp/sap-simulator.js';
export { YonyouNcSimulator } from './erp/yonyou-nc-simulator.js';
export type { YonyouNcSimulatorOptions } from './erp/yonyou-nc-simulator.js';
