import { Module } from '@nestjs/common';
import { ErpToolsModule } from './erp/erp.module.js';
import { OpsToolsModule } from './ops/ops.module.js';

/**
 * Every tool pack the gateway loads: a new pack (`libs/tool-packs/src/<pack>/<pack>.module.ts`) is
 * one line here and nothing else. `tool-packs.spec.ts` fails, naming the pack, when a pack folder
 * is not in this list. The demo backends are not a pack: the gateway loads them with the demo.
 */
export const TOOL_PACKS = [OpsToolsModule, ErpToolsModule];

/** The tool packs of TOOL_PACKS, as one module for the gateway to import. */
@Module({ imports: TOOL_PACKS })
export class ToolPacksModule {}
