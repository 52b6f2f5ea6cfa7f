import { Module } from '@nestjs/common';
import { KeysController } from './keys.controller.js';
import { KeysAdminService } from './keys.service.js';

/** The admin audience: API keys (bindings and tenants come with the admin console issue). */
@Module({ controllers: [KeysController], providers: [KeysAdminService] })
export class AdminHttpModule {}
