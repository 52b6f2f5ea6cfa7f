import {
  DEFAULT_PLATFORM_ALARMS_OPTIONS,
  type PlatformAlarmsOptions,
} from './alarms/platform-alarms.options.js';

/** Platform settings of the notifications lib (`notifications:` of config/toolgate.yaml). */
export interface NotificationsOptions {
  /** Where people reach the console: links in messages are `<publicUrl>/console/approvals/<id>`. */
  readonly publicUrl: string;
  /** How often a gateway sends due deliveries and plans reminders. */
  readonly pollMs: number;
  /** Attempts before a delivery goes to the dead letters. */
  readonly maxAttempts: number;
  /** The first retry waits this long; each next one twice as long (capped at an hour). */
  readonly retryBaseMs: number;
  /** One attempt's time limit. */
  readonly sendTimeoutMs: number;
  /** Feishu callbacks older or newer than this are refused. */
  readonly callbackWindowMs: number;
  /** Platform alarms (the audit trail failing or broken) and their channels (ADR 039). */
  readonly alarms: PlatformAlarmsOptions;
}

/** The defaults of the settings file (`config/toolgate.yaml` shows them). */
export const DEFAULT_NOTIFICATIONS_OPTIONS: Omit<NotificationsOptions, 'publicUrl'> = {
  pollMs: 2_000,
  maxAttempts: 5,
  retryBaseMs: 5_000,
  sendTimeoutMs: 5_000,
  callbackWindowMs: 300_000,
  alarms: DEFAULT_PLATFORM_ALARMS_OPTIONS,
};

/** The longest pause between two attempts. */
export const MAX_RETRY_DELAY_MS = 3_600_000;

export const NOTIFICATIONS_OPTIONS = Symbol('NOTIFICATIONS_OPTIONS');

/** Where the notifications lib reads a tenant's `notifications:` section (the tenant's settings). */
export interface NotificationSettingsSource {
  /** The raw section, or undefined when the tenant has none or does not exist. */
  notificationsOf(tenantId: string): Promise<unknown>;
  /** Whether the tenant exists (the admin routes answer NOT_FOUND for one that does not). */
  tenantExists(tenantId: string): Promise<boolean>;
}
export const NOTIFICATION_SETTINGS_SOURCE = Symbol('NOTIFICATION_SETTINGS_SOURCE');
