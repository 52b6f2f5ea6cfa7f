import { DEMO_OPS_TOKEN } from '../../ops/ops.constants.js';
import { opsApiConnector } from '../../ops/ops-api.connector.js';
import type { OpsSimulator } from '../../ops/ops-simulator.js';
import { OpsToolsModule } from '../../ops/ops.module.js';
import { createToolTestBed, type ToolTestBed } from './tool-test-bed.js';

/**
 * Starts `sim` and boots the ops pack against it with the demo token; `close()` closes both.
 * @example
 * const sim = new OpsSimulator({ slowDelayMs: 400 });
 * beforeAll(async () => { bed = await createOpsTestBed(sim); });
 * afterAll(() => bed.close());
 */
export async function createOpsTestBed(sim: OpsSimulator): Promise<ToolTestBed> {
  const baseUrl = await sim.start();
  const bed = await createToolTestBed([OpsToolsModule], {
    ops_api: opsApiConnector.create({ baseUrl, token: DEMO_OPS_TOKEN }),
  });
  return {
    ...bed,
    close: async () => {
      await bed.close();
      await sim.close();
    },
  };
}
