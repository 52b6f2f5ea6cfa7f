import { isTenantEnvName, tenantEnvNamespace } from '@toolgate/contract/rules';
import type { TenantSection } from '@toolgate/tenancy';
import { notificationSettingsSchema, secretEnvNames } from './notification-settings.schema.js';

/**
 * A tenant file's `notifications:` section (ADR 031), with the check a schema cannot make: its
 * secrets come from the tenant's own namespace of the environment only (`TOOLGATE_NOTIFY_<TENANT>__*`),
 * so one tenant's admin never sends another tenant's robot token.
 */
export const tenantNotificationsSection: TenantSection<typeof notificationSettingsSchema> = {
  schema: notificationSettingsSchema,
  problems: (settings, { tenantId }) => {
    const namespace = tenantEnvNamespace('notification', tenantId);
    return secretEnvNames(settings)
      .filter((v) => !isTenantEnvName('notification', tenantId, v.name))
      .map((v) => ({ path: v.path, message: `name a variable of this tenant: ${namespace}<NAME>` }));
  },
};
