/** Names, paths, limits and demo credentials of the ERP pack, in one place. */

/** The SAP connector's name: its key under `connectors:` in a tenant file, and its implementation name. */
export const SAP_CONNECTOR = 'sap';
/** The Yonyou NC connector's name: its key under `connectors:`, and its implementation name. */
export const YONYOU_NC_CONNECTOR = 'yonyou_nc';
/** Where a delivery report came from. */
export const ERP_SOURCES = [SAP_CONNECTOR, YONYOU_NC_CONNECTOR] as const;

/** Delivery states of the contract. */
export const DELIVERY_STATUSES = ['open', 'delivered', 'late'] as const;
/** The `status` filter: a delivery state or `all`. */
export const DELIVERY_STATUS_FILTERS = [...DELIVERY_STATUSES, 'all'] as const;
/** Supplier numbers are short alphanumeric codes (`V10023`); refusing anything else keeps quotes out of OData filters. */
export const SUPPLIER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,19}$/;

/** The SAP Gateway OData service of scheduled deliveries (a customer `Z` service). */
export const SAP_DELIVERY_SERVICE_PATH = '/sap/opu/odata/sap/ZMM_SUPPLIER_DELIVERY_SRV';
/** Its entity set of schedule lines. */
export const SAP_DELIVERY_ENTITY_SET = 'DeliveryScheduleSet';
/** The OData error code the delivery service gives for an unknown supplier. */
export const SAP_SUPPLIER_NOT_FOUND_CODE = 'ZMM_DELIVERY/001';

/** The NC Cloud open API that lists purchase arrivals of one supplier. */
export const NC_ARRIVAL_QUERY_PATH = '/nccloud/api/pu/arrival/querybyvendor';
/** NC answers HTTP 200 with `code: '0'` on success and another code on business failures. */
export const NC_SUCCESS_CODE = '0';
/** NC's business code for an unknown supplier. */
export const NC_SUPPLIER_NOT_FOUND_CODE = '20004';
/** NC's code for a missing, wrong or expired signature (HTTP 401). */
export const NC_SIGNATURE_INVALID_CODE = '10001';
/** Signed NC requests older or newer than this are refused (replay protection). */
export const NC_MAX_CLOCK_SKEW_MS = 5 * 60_000;

/** Invoice numbers are short alphanumeric codes (SAP `90012001`, NC `XSFP2025110001`). */
export const INVOICE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,19}$/;
/** The largest refund one call may ask for, in CNY (the contract's bound; tenants' rules decide below it). */
export const MAX_REFUND_CNY = 10_000_000;
/** The refund reason is written to the ERP document's text: long enough to say why, short enough to fit. */
export const REFUND_REASON_LENGTH = { min: 4, max: 200 } as const;

/** The SAP Gateway OData service that creates credit memo requests for a billing document (a customer `Z` service). */
export const SAP_REFUND_SERVICE_PATH = '/sap/opu/odata/sap/ZSD_REFUND_SRV';
/** Its entity set: one POST creates one credit memo request. */
export const SAP_REFUND_ENTITY_SET = 'RefundRequestSet';
/** OASIS OData "repeatable requests" header SAP Gateway reads: the same id answers the first result. */
export const SAP_REPEATABILITY_HEADER = 'repeatability-request-id';
/** The OData error code for an unknown billing document. */
export const SAP_INVOICE_NOT_FOUND_CODE = 'ZSD_REFUND/002';
/** The OData error code for a refund above what is left to refund on the billing document. */
export const SAP_REFUND_TOO_LARGE_CODE = 'ZSD_REFUND/003';

/** The NC Cloud open API that saves a refund (红字) against a sales invoice. */
export const NC_REFUND_SAVE_PATH = '/nccloud/api/so/saleinvoice/refund/save';
/** NC's business code for an unknown sales invoice. */
export const NC_INVOICE_NOT_FOUND_CODE = '20011';
/** NC's business code for a refund above the invoice's refundable amount. */
export const NC_REFUND_TOO_LARGE_CODE = '20012';

/*
 * Demo credentials: what the simulators accept. Tenant files reference them with defaults, e.g.
 *   sap:       { baseUrl: '${DEMO_SAP_URL}', client: '100', username: 'TOOLGATE', password: '${TOOLGATE_T_ACME__SAP_PASSWORD:-demo-sap-password}' }
 *   yonyou_nc: { baseUrl: '${DEMO_NC_URL}', appKey: 'demo-nc-key', appSecret: '${TOOLGATE_T_GLOBEX__NC_SECRET:-demo-nc-secret}' }
 */
/** SAP client (Mandant) of the demo system. */
export const DEMO_SAP_CLIENT = '100';
/** SAP technical user of the demo system. */
export const DEMO_SAP_USERNAME = 'TOOLGATE';
/** Its password. */
export const DEMO_SAP_PASSWORD = 'demo-sap-password';
/** NC open-API application key of the demo system. */
export const DEMO_NC_APP_KEY = 'demo-nc-key';
/** Its signing secret: never sent, only used to sign. */
export const DEMO_NC_APP_SECRET = 'demo-nc-secret';

/** Headers of a signed NC open-API request. */
export const NC_HEADERS = {
  appKey: 'x-nc-appkey',
  timestamp: 'x-nc-timestamp',
  signature: 'x-nc-signature',
} as const;
