import { Module, type DynamicModule } from '@nestjs/common';
import { DEMO_BACKENDS_OPTIONS, type DemoBackendsOptions } from './demo-backends.constants.js';
import { DemoBackends } from './demo-backends.service.js';

/**
 * Starts the demo upstreams and registers their URLs for tenant files. Needs `ConfigVariables`
 * (TenancyModule is global). Import it as is, or with `forRoot` to shorten the timeout demo.
 * @example
 * imports: [TenancyModule.forRoot(...), DemoBackendsModule]
 * imports: [DemoBackendsModule.forRoot({ legacyBatchDelayMs: 300 })]
 */
@Module({
  providers: [DemoBackends],
  exports: [DemoBackends],
})
export class DemoBackendsModule {
  /** The module with options; the plain class uses the demo defaults. */
  static forRoot(options: DemoBackendsOptions): DynamicModule {
    return { module: DemoBackendsModule, providers: [{ provide: DEMO_BACKENDS_OPTIONS, useValue: options }] };
  }
}
