import { Module, type DynamicModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { RefusalRecorder } from '../http/refusal-recorder.js';
import { AuditAlarmRelay } from './audit-alarm.relay.js';
import { CallMetricsHook } from './call-metrics.hook.js';
import { MetricsAccessGuard } from './metrics-access.guard.js';
import { MetricsRegistry } from './metrics.registry.js';
import { OpsController } from './ops.controller.js';
import { OPS_OPTIONS, type OpsOptions } from './ops.options.js';
import { SiemMetrics } from './siem-metrics.js';
import { RetentionMetrics } from './retention-metrics.js';

/** Health, readiness and metrics (`OpsHttpModule.forRoot({ metricsToken })`). */
@Module({})
export class OpsHttpModule {
  static forRoot(options: OpsOptions): DynamicModule {
    return {
      module: OpsHttpModule,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [OpsController],
      providers: [
        MetricsRegistry,
        CallMetricsHook,
        MetricsAccessGuard,
        RefusalRecorder,
        SiemMetrics,
        RetentionMetrics,
        AuditAlarmRelay,
        { provide: OPS_OPTIONS, useValue: options },
      ],
    };
  }
}
