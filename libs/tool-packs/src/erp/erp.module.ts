import { Module } from '@nestjs/common';
import { ToolkitModule } from '@toolgate/toolkit';
import { createNcRefund, createSapRefund } from './create-refund.tool.js';
import { queryNcDeliveries, querySapDeliveries } from './query-supplier-delivery.tool.js';
import { sapConnector } from './sap.connector.js';
import { yonyouNcConnector } from './yonyou-nc.connector.js';

/**
 * The ERP pack: two contracts, `query_supplier_delivery` (L1 read) and `create_refund` (L2 write),
 * each with a `sap` and a `yonyou_nc` implementation (in its `.tool.ts` file), and their
 * connectors. A tenant's binding picks the implementation.
 */
@Module({
  imports: [
    ToolkitModule.forFeature([querySapDeliveries, queryNcDeliveries, createSapRefund, createNcRefund], {
      source: 'ErpToolsModule',
      connectors: [sapConnector, yonyouNcConnector],
    }),
  ],
})
export class ErpToolsModule {}
