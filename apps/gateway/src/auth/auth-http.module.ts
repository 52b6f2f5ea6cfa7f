import { Module } from '@nestjs/common';
import { OidcController } from './oidc.controller.js';

/** The console's sign-in routes for people (OIDC) and sign-out. */
@Module({ controllers: [OidcController] })
export class AuthHttpModule {}
