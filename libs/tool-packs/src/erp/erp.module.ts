import { Module } from '@nestjs/common';
import { ToolkitModule } from '@toolgate/toolkit';
import { queryNcDeliveries, querySapDeliveries } from './query-supplier-delivery.tool.js';
import { sapConnector } from './sap.connector.js';
import { yonyouNcConnector } from './yonyou-nc.connector.js';

/**
 * The ERP pack: one contract, `query_supplier_delivery`, with a `sap` and a `yonyou_nc`
 * implementation (both in its `.tool.ts` file), and their connectors. A tenant's binding picks the
 * implementation.
 */
@Module({
  imports: [
    ToolkitModule.forFeature([querySapDeliveries, queryNcDeliveries], {
      source: 'ErpToolsModule',
      connectors: [sapConnector, yonyouNcConnector],
    }),
  ],
})
export class ErpToolsModule {}
