import { defineConnector } from '@toolgate/toolkit';
import { z } from 'zod';
import { YONYOU_NC_CONNECTOR } from './erp.constants.js';
import { YonyouNcClient } from './yonyou-nc.client.js';

/** One tenant's Yonyou NC Cloud open-API configuration. */
export const yonyouNcConfigSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }).describe('NC Cloud 开放平台地址，例如 https://nc.example.com'),
  appKey: z.string().min(1).describe('开放平台应用 appKey'),
  appSecret: z.string().min(1).describe('应用密钥：只用于签名，不会发送'),
});

/** The validated configuration `create` receives. */
export type YonyouNcConfig = z.output<typeof yonyouNcConfigSchema>;

/**
 * The `yonyou_nc` connector: Yonyou NC Cloud open API, HMAC-signed requests, `{ code, data }` answers.
 * @example
 * connectors:
 *   yonyou_nc: { baseUrl: '${DEMO_NC_URL}', appKey: 'demo-nc-key', appSecret: '${TOOLGATE_T_GLOBEX__NC_SECRET:-demo-nc-secret}' }
 */
export const yonyouNcConnector = defineConnector({
  name: YONYOU_NC_CONNECTOR,
  description: 'Yonyou NC Cloud open API (HMAC-signed): purchase arrivals.',
  configSchema: yonyouNcConfigSchema,
  secretFields: ['appSecret'],
  endpointFields: ['baseUrl'],
  create: (config) => new YonyouNcClient(config),
});
