import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import type { NotificationSettings } from './config/notification-settings.schema.js';
import { TenantNotifications } from './config/tenant-notifications.js';
import { NOTIFICATION_SETTINGS_SOURCE, type NotificationSettingsSource } from './notifications.options.js';
import { DeliveryRepository } from './outbox/delivery.repository.js';
import type { DeliveryStatus } from './outbox/notification-delivery.entity.js';

const isSet = (name: string | undefined) => (name ? Boolean(process.env[name]) : null);

/**
 * A tenant's notification settings as the console shows them: secrets only as the names of their
 * environment variables (and whether they are set), never their values.
 */
export function notificationSettingsView(s: NotificationSettings | null) {
  return {
    channels: Object.entries(s?.channels ?? {}).map(([name, c]) => ({
      name,
      type: c.type,
      url: c.url,
      description: c.description ?? null,
      tokenEnv: c.tokenEnv ?? null,
      tokenSet: isSet(c.tokenEnv),
      secretEnv: c.secretEnv ?? null,
      secretSet: isSet(c.secretEnv),
    })),
    routes: s?.routes ?? [],
    reminders: s?.reminders ?? null,
    escalation: s?.escalation ?? null,
    feishu: s?.feishu
      ? {
          encryptKeyEnv: s.feishu.encryptKeyEnv,
          encryptKeySet: isSet(s.feishu.encryptKeyEnv),
          verificationTokenEnv: s.feishu.verificationTokenEnv ?? null,
          users: Object.entries(s.feishu.users).map(([feishuId, u]) => ({
            feishuId,
            subject: `${u.provider}:${u.subject}`,
            name: u.name ?? null,
            role: u.role,
          })),
        }
      : null,
  };
}

/**
 * The console's notifications page: settings, the delivery log, dead letters and their retry. A
 * tenant that does not exist is NOT_FOUND, as on the other admin routes of a tenant.
 */
@Injectable()
export class NotificationAdmin {
  constructor(
    private readonly settings: TenantNotifications,
    private readonly deliveries: DeliveryRepository,
    @Inject(NOTIFICATION_SETTINGS_SOURCE) private readonly source: NotificationSettingsSource,
  ) {}

  async settingsOf(tenantId: string) {
    await this.requireTenant(tenantId);
    return notificationSettingsView(await this.settings.of(tenantId));
  }

  /** Deliveries newest first, each with its attempts. */
  async deliveriesOf(tenantId: string, statuses: readonly DeliveryStatus[] | undefined, limit: number) {
    await this.requireTenant(tenantId);
    const rows = await this.deliveries.list(tenantId, statuses, limit);
    const attempts = await this.deliveries.attemptsOf(
      tenantId,
      rows.map((r) => r.id),
    );
    return rows.map((d) => ({
      id: d.id,
      approvalId: d.approvalId,
      channel: d.channel,
      channelType: d.channelType,
      kind: d.kind,
      occasion: d.occasion,
      status: d.status,
      attempts: d.totalAttempts,
      nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
      lastError: d.lastError,
      createdAt: d.createdAt.toISOString(),
      updatedAt: d.updatedAt.toISOString(),
      log: attempts
        .filter((a) => a.deliveryId === d.id)
        .map((a) => ({
          seq: a.seq,
          status: a.status,
          httpStatus: a.httpStatus,
          error: a.error,
          durationMs: a.durationMs,
          attemptedAt: a.attemptedAt.toISOString(),
        })),
    }));
  }

  /** Puts a dead letter back in line; NOT_FOUND unless it is one of the tenant's dead letters. */
  async retry(tenantId: string, deliveryId: string): Promise<void> {
    await this.requireTenant(tenantId);
    if (!(await this.deliveries.retry(tenantId, deliveryId, new Date())))
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `dead letter ${deliveryId}` } });
  }

  private async requireTenant(tenantId: string): Promise<void> {
    if (!(await this.source.tenantExists(tenantId)))
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `tenant ${tenantId}` } });
  }
}
export type NotificationSettingsView = ReturnType<typeof notificationSettingsView>;
export type DeliveryView = Awaited<ReturnType<NotificationAdmin['deliveriesOf']>>[number];
