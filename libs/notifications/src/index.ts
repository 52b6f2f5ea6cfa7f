// Public surface of the notifications lib: approval messages to webhooks and IM robots, decisions from Feishu.
import { NotificationOutbox1764800100000 } from './migrations/1764800100000-notification-outbox.js';

export { approvalCard, decidedCard } from './feishu/feishu-card.js';
export type { CardActionValue } from './feishu/feishu-card.js';
export { decryptFeishu, feishuCallbackSignature } from './feishu/feishu-callback.js';
export type { FeishuCallbackHeaders } from './feishu/feishu-callback.js';
export { FeishuDecisions } from './feishu/feishu-decisions.js';
export type { FeishuAnswer } from './feishu/feishu-decisions.js';
export { dingtalkSign, feishuBotSign, toolgateSignature } from './channels/signatures.js';
export { NotificationAdmin, notificationSettingsView } from './notification-admin.service.js';
export type { DeliveryView, NotificationSettingsView } from './notification-admin.service.js';
export { NotificationsModule } from './notifications.module.js';
export { alarmText } from './alarms/alarm-request.js';
export type { PlatformAlarm } from './alarms/alarm-request.js';
export { PlatformAlarms } from './alarms/platform-alarms.js';
export type { AlarmOutcome } from './alarms/platform-alarms.js';
export {
  alarmChannelSchema,
  DEFAULT_PLATFORM_ALARMS_OPTIONS,
  platformAlarmsSchema,
} from './alarms/platform-alarms.options.js';
export type { AlarmChannel, PlatformAlarmsOptions } from './alarms/platform-alarms.options.js';
export { NotificationsScheduler } from './dispatch/notifications.scheduler.js';
export { DEFAULT_NOTIFICATIONS_OPTIONS } from './notifications.options.js';
export type { NotificationSettingsSource, NotificationsOptions } from './notifications.options.js';
export { DELIVERY_STATUSES } from './outbox/notification-delivery.entity.js';
export type { DeliveryStatus } from './outbox/notification-delivery.entity.js';
export { notificationSettingsSchema } from './config/notification-settings.schema.js';
export { tenantNotificationsSection } from './config/tenant-notifications-section.js';
export type { NotificationSettings } from './config/notification-settings.schema.js';
export { NotificationOutbox1764800100000 };

/** The notifications lib's migrations, in order. */
export const NOTIFICATIONS_MIGRATIONS = [NotificationOutbox1764800100000];
