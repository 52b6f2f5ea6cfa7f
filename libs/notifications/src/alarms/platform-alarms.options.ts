import { z } from 'zod';
import { CHANNEL_NAME, SECRET_ENV } from '../config/notification-settings.schema.js';

/**
 * A channel platform alarms go to: a generic webhook or a DingTalk, Feishu or WeCom group robot,
 * addressed as in a tenant's `notifications.channels` (secrets as `TOOLGATE_NOTIFY_*` names). A
 * Feishu app is not offered: alarms are told, not decided.
 */
export const alarmChannelSchema = z.strictObject({
  type: z
    .enum(['webhook', 'dingtalk', 'feishu', 'wecom'])
    .describe('A generic webhook (signed JSON) or a DingTalk, Feishu or WeCom group robot.'),
  url: z
    .url({ protocol: /^https?$/ })
    .describe('The non-secret part of the address; sent through the egress policy.'),
  tokenEnv: SECRET_ENV.optional().describe(
    'The `TOOLGATE_NOTIFY_*` variable holding the secret part of the address (DingTalk access_token, Feishu hook id, WeCom key).',
  ),
  secretEnv: SECRET_ENV.optional().describe(
    'The `TOOLGATE_NOTIFY_*` variable holding the signing key (webhook, DingTalk, Feishu).',
  ),
  description: z.string().max(200).optional().describe('What the channel is, for people.'),
});
export type AlarmChannel = z.infer<typeof alarmChannelSchema>;

/** `notifications.alarms` of config/toolgate.yaml. */
export const platformAlarmsSchema = z.strictObject({
  channels: z.record(CHANNEL_NAME, alarmChannelSchema).optional(),
  minIntervalMs: z.number().int().min(1_000).max(86_400_000).optional(),
});

/** Platform alarms (the trail failing or found broken) and where they go (ADR 039). */
export interface PlatformAlarmsOptions {
  /** Every channel hears every alarm; none: the metric and the log line only. */
  readonly channels: Readonly<Record<string, AlarmChannel>>;
  /** One message per kind of alarm per this long; the next one says how many were held back. */
  readonly minIntervalMs: number;
}

export const DEFAULT_PLATFORM_ALARMS_OPTIONS: PlatformAlarmsOptions = {
  channels: {},
  minIntervalMs: 300_000,
};
