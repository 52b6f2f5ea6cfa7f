import { ConfigurableModuleBuilder, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GatewayInstanceEntity } from './gateway-instance.entity.js';
import { INSTANCE_OPTIONS, InstanceRegistry, type InstanceOptions } from './instance-registry.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<InstanceOptions>({
  optionsInjectionToken: INSTANCE_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/**
 * This process's identity and heartbeat among the gateways of one database.
 * `InstancesModule.forRoot(options)` (or `forRootAsync`).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([GatewayInstanceEntity])],
  providers: [InstanceRegistry],
  exports: [InstanceRegistry],
})
export class InstancesModule extends ConfigurableModuleClass {}
