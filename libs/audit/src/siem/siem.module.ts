import { ConfigurableModuleBuilder, Global, Module } from '@nestjs/common';
import { SIEM_OPTIONS, type SiemOptions } from './siem.options.js';
import { SiemForwarder } from './siem-forwarder.js';
import { SinkStateRepository } from './sink-state.repository.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<SiemOptions>({
  optionsInjectionToken: SIEM_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/**
 * Streams the audit trail to SIEM sinks (ADR 038): `SiemModule.forRoot({ sinks, ... })`. Needs the
 * audit, database, instances and egress modules (all global). No sinks: it does nothing.
 */
@Global()
@Module({
  providers: [SinkStateRepository, SiemForwarder],
  exports: [SiemForwarder],
})
export class SiemModule extends ConfigurableModuleClass {}
