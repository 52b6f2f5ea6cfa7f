import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { ConfigVariables } from '@toolgate/tenancy';
import { SapSimulator } from '../erp/sap-simulator.js';
import { YonyouNcSimulator } from '../erp/yonyou-nc-simulator.js';
import { OpsSimulator } from '../ops/ops-simulator.js';
import {
  DEMO_BACKENDS_OPTIONS,
  DEMO_VARIABLES,
  type DemoBackendsOptions,
} from './demo-backends.constants.js';

/**
 * The three demo upstreams (ops API, SAP, Yonyou NC) running in the gateway's process on loopback
 * ports. Started in `onModuleInit` — before the tenant importer checks connector configurations at
 * bootstrap — and their URLs registered as DEMO_OPS_URL, DEMO_SAP_URL, DEMO_NC_URL.
 * Tests reach the simulators (and their counters) through `ops`, `sap` and `nc`.
 */
@Injectable()
export class DemoBackends implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('DemoBackends');
  /** The demo ops API. */
  readonly ops: OpsSimulator;
  /** The demo SAP Gateway. */
  readonly sap = new SapSimulator();
  /** The demo NC Cloud open API. */
  readonly nc = new YonyouNcSimulator();

  constructor(
    private readonly variables: ConfigVariables,
    @Optional() @Inject(DEMO_BACKENDS_OPTIONS) options: DemoBackendsOptions | null,
  ) {
    this.ops = new OpsSimulator({ slowDelayMs: options?.legacyBatchDelayMs });
  }

  async onModuleInit(): Promise<void> {
    try {
      const [ops, sap, nc] = await Promise.all([this.ops.start(), this.sap.start(), this.nc.start()]);
      this.variables.set(DEMO_VARIABLES.ops, ops);
      this.variables.set(DEMO_VARIABLES.sap, sap);
      this.variables.set(DEMO_VARIABLES.nc, nc);
      this.logger.log(`demo backends listening: ops ${ops}, sap ${sap}, nc ${nc}`);
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  /**
   * Closed at the last hook before the server stops, not in `onModuleDestroy`: other modules may
   * still drain calls to these backends while they are destroyed.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.close();
  }

  /** Closes every simulator, pending delayed requests included. Safe to call more than once. */
  async close(): Promise<void> {
    await Promise.all([this.ops.close(), this.sap.close(), this.nc.close()]);
  }
}
