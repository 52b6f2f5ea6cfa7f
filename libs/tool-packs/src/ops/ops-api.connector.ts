import { defineConnector } from '@toolgate/toolkit';
import { z } from 'zod';
import { OpsApiClient } from './ops-api.client.js';
import { OPS_API_CONNECTOR } from './ops.constants.js';

/** One tenant's ops API configuration. */
export const opsApiConfigSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }).describe('运维 API 根地址，例如 https://ops.example.com'),
  token: z.string().min(1).describe('Bearer 令牌'),
});

/** The validated configuration `create` receives. */
export type OpsApiConfig = z.output<typeof opsApiConfigSchema>;

/**
 * The `ops_api` connector: an internal operations API (service status, logs, restarts) with
 * bearer-token auth.
 * @example
 * # config/tenants/acme.yaml
 * connectors:
 *   ops_api: { baseUrl: '${DEMO_OPS_URL}', token: '${TOOLGATE_T_ACME__OPS_TOKEN:-demo-ops-token}' }
 */
export const opsApiConnector = defineConnector({
  name: OPS_API_CONNECTOR,
  description: 'Internal operations API: service status, log search, rolling restarts.',
  configSchema: opsApiConfigSchema,
  secretFields: ['token'],
  endpointFields: ['baseUrl'],
  create: (config) => new OpsApiClient(config),
});
