import { ConfigurableModuleBuilder, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminKeyBootstrap } from './admin-key.bootstrap.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { ApiKeyService } from './api-key.service.js';
import { KeyOwners } from './key-owners.js';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options.js';
import { OIDC_OPTIONS, OidcSignInService } from './oidc/oidc-sign-in.service.js';
import { PrincipalStanding } from './principal-standing.js';
import { RoleMappingAudit } from './oidc/role-mapping-audit.js';
import { SeparatedDuties } from './separated-duties.js';
import { AuthSessionEntity } from './sessions/auth-session.entity.js';
import { OidcLoginEntity } from './sessions/oidc-login.entity.js';
import { SessionRepository } from './sessions/session.repository.js';
import { SignInAudit } from './sessions/sign-in-audit.js';
import { SessionService } from './sessions/session.service.js';
import { SessionSweep } from './sessions/session-sweep.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<AuthOptions>({
  optionsInjectionToken: AUTH_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/**
 * API keys, people's browser sessions (OIDC sign-in), roles and the guard that turns a bearer key
 * or a session cookie into a principal.
 * `AuthModule.forRoot(options)` (or `forRootAsync`).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity, AuthSessionEntity, OidcLoginEntity])],
  providers: [
    ApiKeyRepository,
    ApiKeyService,
    KeyOwners,
    ApiKeyGuard,
    AdminKeyBootstrap,
    SessionRepository,
    SessionService,
    SignInAudit,
    SessionSweep,
    OidcSignInService,
    PrincipalStanding,
    SeparatedDuties,
    RoleMappingAudit,
    { provide: OIDC_OPTIONS, useFactory: (o: AuthOptions) => o.oidc, inject: [AUTH_OPTIONS] },
  ],
  exports: [
    ApiKeyService,
    KeyOwners,
    ApiKeyGuard,
    AdminKeyBootstrap,
    SessionService,
    OidcSignInService,
    PrincipalStanding,
    SeparatedDuties,
  ],
})
export class AuthModule extends ConfigurableModuleClass {}
