import {
  Module,
  type DynamicModule,
  type InjectionToken,
  type OptionalFactoryDependency,
} from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GatewayInstanceEntity } from './gateway-instance.entity.js';
import { INSTANCE_OPTIONS, InstanceRegistry, type InstanceOptions } from './instance-registry.js';

/** This process's identity and heartbeat among the gateways of one database. */
@Module({})
export class InstancesModule {
  static forRootAsync(options: {
    inject?: (InjectionToken | OptionalFactoryDependency)[];
    useFactory: (...args: any[]) => InstanceOptions | Promise<InstanceOptions>;
  }): DynamicModule {
    return {
      module: InstancesModule,
      global: true,
      imports: [TypeOrmModule.forFeature([GatewayInstanceEntity])],
      providers: [
        { provide: INSTANCE_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        InstanceRegistry,
      ],
      exports: [InstanceRegistry],
    };
  }
}
