import { defineConnector } from '@toolgate/toolkit';
import { z } from 'zod';
import { SapClient } from './sap.client.js';
import { SAP_CONNECTOR } from './erp.constants.js';

/** One tenant's SAP Gateway configuration. */
export const sapConfigSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }).describe('SAP Gateway 根地址，例如 https://sap.example.com:44300'),
  client: z
    .string()
    .regex(/^\d{3}$/)
    .describe('SAP 集团（client / Mandant），三位数字，例如 100'),
  username: z.string().min(1).describe('技术用户'),
  password: z.string().min(1).describe('技术用户密码'),
});

/** The validated configuration `create` receives. */
export type SapConfig = z.output<typeof sapConfigSchema>;

/**
 * The `sap` connector: an SAP Gateway OData v2 service with basic auth and the `sap-client` header.
 * @example
 * connectors:
 *   sap: { baseUrl: '${DEMO_SAP_URL}', client: '100', username: 'TOOLGATE', password: '${TOOLGATE_T_ACME__SAP_PASSWORD:-demo-sap-password}' }
 */
export const sapConnector = defineConnector({
  name: SAP_CONNECTOR,
  description: 'SAP S/4HANA or ECC through SAP Gateway (OData v2): purchasing schedule lines.',
  configSchema: sapConfigSchema,
  secretFields: ['password'],
  endpointFields: ['baseUrl'],
  create: (config) => new SapClient(config),
});
