import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { CallMetricsHook } from './call-metrics.hook.js';
import { MetricsRegistry } from './metrics.registry.js';
import { OpsController } from './ops.controller.js';

/** Health, readiness and metrics. */
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [OpsController],
  providers: [MetricsRegistry, CallMetricsHook],
})
export class OpsHttpModule {}
