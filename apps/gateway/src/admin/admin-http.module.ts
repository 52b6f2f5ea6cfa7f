import { Module } from '@nestjs/common';
import { AdminActs } from '../http/admin-acts.js';
import { MeController } from '../me/me.controller.js';
import { KeysController } from './keys.controller.js';
import { KeysAdminService } from './keys.service.js';
import { ProcessingRecordsController } from './processing-records.controller.js';
import { StatsController } from './stats.controller.js';
import { StatsService } from './stats.service.js';
import { TenantsController } from './tenants.controller.js';
import { ToolCatalog } from './tool-catalog.service.js';

/** The admin audience: the tool catalog, tenants, bindings, API keys. */
@Module({
  controllers: [
    KeysController,
    TenantsController,
    MeController,
    StatsController,
    ProcessingRecordsController,
  ],
  providers: [KeysAdminService, ToolCatalog, StatsService, AdminActs],
})
export class AdminHttpModule {}
