import { ConfigurableModuleBuilder, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminKeyBootstrap } from './admin-key.bootstrap.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { ApiKeyService } from './api-key.service.js';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<AuthOptions>({
  optionsInjectionToken: AUTH_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/**
 * API keys, roles and the guard that turns a bearer key into a principal.
 * `AuthModule.forRoot(options)` (or `forRootAsync`).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity])],
  providers: [ApiKeyRepository, ApiKeyService, ApiKeyGuard, AdminKeyBootstrap],
  exports: [ApiKeyService, ApiKeyGuard, AdminKeyBootstrap],
})
export class AuthModule extends ConfigurableModuleClass {}
