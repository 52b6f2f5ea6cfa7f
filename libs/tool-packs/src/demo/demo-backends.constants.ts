/**
 * Variables the demo backends register for `${NAME}` placeholders in tenant files. The demo
 * tenants reference them as `baseUrl: '${DEMO_OPS_URL}'`.
 *
 * Credentials the simulators accept (constants of the packs, re-exported by the lib):
 * - ops_api:   token `demo-ops-token` (DEMO_OPS_TOKEN) → `token: '${TOOLGATE_T_ACME__OPS_TOKEN:-demo-ops-token}'`
 * - sap:       client `100`, user `TOOLGATE`, password `demo-sap-password`
 *              (DEMO_SAP_CLIENT, DEMO_SAP_USERNAME, DEMO_SAP_PASSWORD)
 * - yonyou_nc: appKey `demo-nc-key`, appSecret `demo-nc-secret` (DEMO_NC_APP_KEY, DEMO_NC_APP_SECRET)
 */
export const DEMO_VARIABLES = {
  ops: 'DEMO_OPS_URL',
  sap: 'DEMO_SAP_URL',
  nc: 'DEMO_NC_URL',
} as const;

/** Injection token of the demo backends' options. */
export const DEMO_BACKENDS_OPTIONS = Symbol('DEMO_BACKENDS_OPTIONS');

/** Settings of the demo backends; every field has a demo default. */
export interface DemoBackendsOptions {
  /** How long the ops simulator's `legacy-batch` takes to answer (default 15 s). */
  readonly legacyBatchDelayMs?: number;
}
