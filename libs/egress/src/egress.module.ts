import { ConfigurableModuleBuilder, Global, Module } from '@nestjs/common';
import { Egress } from './egress.service.js';
import { EGRESS_OPTIONS, type EgressOptions } from './egress.options.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<EgressOptions>({
  optionsInjectionToken: EGRESS_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/**
 * The platform's egress policy (ADR 026) as one `Egress` service. Global: the upstreams and
 * notifications libs send through it.
 */
@Global()
@Module({ providers: [Egress], exports: [Egress] })
export class EgressModule extends ConfigurableModuleClass {}
