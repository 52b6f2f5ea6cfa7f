import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { asyncOptionsProvider, type AsyncModuleOptions } from '@toolgate/toolkit';
import { GatewayInstanceEntity } from './gateway-instance.entity.js';
import { INSTANCE_OPTIONS, InstanceRegistry, type InstanceOptions } from './instance-registry.js';

/** This process's identity and heartbeat among the gateways of one database. */
@Module({})
export class InstancesModule {
  static forRootAsync(options: AsyncModuleOptions<InstanceOptions>): DynamicModule {
    return {
      module: InstancesModule,
      global: true,
      imports: [TypeOrmModule.forFeature([GatewayInstanceEntity])],
      providers: [asyncOptionsProvider(INSTANCE_OPTIONS, options), InstanceRegistry],
      exports: [InstanceRegistry],
    };
  }
}
