import { Module } from '@nestjs/common';
import { ToolkitModule } from '@toolgate/toolkit';
import { SAP_CONNECTOR, YONYOU_NC_CONNECTOR } from './erp.constants.js';
import { querySapDeliveries } from './query-supplier-delivery.sap.js';
import { querySupplierDelivery } from './query-supplier-delivery.tool.js';
import { queryNcDeliveries } from './query-supplier-delivery.yonyou-nc.js';
import { sapConnector } from './sap.connector.js';
import { yonyouNcConnector } from './yonyou-nc.connector.js';

/**
 * The ERP pack: one contract, `query_supplier_delivery`, with a `sap` and a `yonyou_nc`
 * implementation, and their connectors. A tenant's binding picks the implementation.
 */
@Module({
  imports: [
    ToolkitModule.forFeature(
      [
        querySupplierDelivery.implement(SAP_CONNECTOR, querySapDeliveries),
        querySupplierDelivery.implement(YONYOU_NC_CONNECTOR, queryNcDeliveries),
      ],
      { source: 'ErpToolsModule', connectors: [sapConnector, yonyouNcConnector] },
    ),
  ],
})
export class ErpToolsModule {}
