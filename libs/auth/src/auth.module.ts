import { asyncOptionsProvider, type AsyncModuleOptions } from '@toolgate/toolkit';
import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminKeyBootstrap } from './admin-key.bootstrap.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { ApiKeyService } from './api-key.service.js';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options.js';

/** API keys, roles and the guard that turns a bearer key into a principal. */
@Module({})
export class AuthModule {
  static forRootAsync(options: AsyncModuleOptions<AuthOptions>): DynamicModule {
    return {
      module: AuthModule,
      global: true,
      imports: [TypeOrmModule.forFeature([ApiKeyEntity]), ...(options.imports ?? [])],
      providers: [
        asyncOptionsProvider(AUTH_OPTIONS, options),
        ApiKeyRepository,
        ApiKeyService,
        ApiKeyGuard,
        AdminKeyBootstrap,
      ],
      exports: [ApiKeyService, ApiKeyGuard, AdminKeyBootstrap],
    };
  }
}
