// Every export is public API of @toolgate/notifications: approval messages to webhooks and IM robots, decisions from Feishu.
import { NotificationOutbox1764800100000 } from './migrations/1764800100000-notification-outbox.js';
export { FeishuDecisions } from './feishu/feishu-decisions.js';
export { NotificationAdmin } from './notification-admin.service.js';
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
export { DEFAULT_NOTIFICATIONS_OPTIONS } from './notifications.options.js';
export type { NotificationsOptions } from './notifications.options.js';
export { DELIVERY_STATUSES } from './outbox/notification-delivery.entity.js';
export { tenantNotificationsSection } from './config/tenant-notifications-section.js';

/** The notifications lib's migrations, in order. */
export const NOTIFICATIONS_MIGRATIONS = [NotificationOutbox1764800100000];
export { toolgateSignature } from './channels/signatures.js';
