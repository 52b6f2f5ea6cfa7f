import { Inject, Injectable, Logger } from '@nestjs/common';
import { isTenantEnvName, tenantEnvNamespace } from '@toolgate/contract/rules';
import { NOTIFICATION_SETTINGS_SOURCE, type NotificationSettingsSource } from '../notifications.options.js';
import {
  notificationSettingsSchema,
  secretEnvNames,
  type NotificationSettings,
} from './notification-settings.schema.js';

/** A tenant's `notifications:` section, parsed; a tenant without one (or an unreadable one) has none. */
@Injectable()
export class TenantNotifications {
  private readonly logger = new Logger(TenantNotifications.name);

  constructor(@Inject(NOTIFICATION_SETTINGS_SOURCE) private readonly source: NotificationSettingsSource) {}

  async of(tenantId: string): Promise<NotificationSettings | null> {
    const raw = await this.source.notificationsOf(tenantId);
    if (raw === undefined || raw === null) return null;
    const parsed = notificationSettingsSchema.safeParse(raw);
    if (!parsed.success) {
      // Files are checked at boot; a stored section that no longer parses is reported, not used.
      this.logger.warn(`tenant ${tenantId}: unreadable notifications settings`);
      return null;
    }
    // Checked when the file is read too; checked again so no stored row can reach another's secrets
    // (TOOLGATE_NOTIFY_<TENANT>__*: one tenant's admin never sends another tenant's robot token).
    if (secretEnvNames(parsed.data).some((v) => !isTenantEnvName('notification', tenantId, v.name))) {
      const namespace = tenantEnvNamespace('notification', tenantId);
      this.logger.warn(`tenant ${tenantId}: notification secrets outside ${namespace}*; notifications off`);
      return null;
    }
    return parsed.data;
  }
}
