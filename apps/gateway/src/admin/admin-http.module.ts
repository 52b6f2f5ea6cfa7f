import { Module } from '@nestjs/common';
import { MeController } from '../me/me.controller.js';
import { KeysController } from './keys.controller.js';
import { KeysAdminService } from './keys.service.js';
import { TenantsController } from './tenants.controller.js';
import { ToolCatalog } from './tool-catalog.service.js';

/** The admin audience: the tool catalog, tenants, bindings, API keys. */
@Module({
  controllers: [KeysController, TenantsController, MeController],
  providers: [KeysAdminService, ToolCatalog],
})
export class AdminHttpModule {}
