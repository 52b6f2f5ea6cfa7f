import { Global, Module, type DynamicModule, type FactoryProvider } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlatformAlarms } from './alarms/platform-alarms.js';
import { TenantNotifications } from './config/tenant-notifications.js';
import { ApprovalMessages } from './dispatch/approval-messages.js';
import { DeliverySender } from './dispatch/delivery-sender.js';
import { NotificationPlanner } from './dispatch/notification-planner.js';
import { NotificationsScheduler } from './dispatch/notifications.scheduler.js';
import { CallbackNonceEntity } from './feishu/callback-nonce.entity.js';
import { CallbackNonceRepository } from './feishu/callback-nonce.repository.js';
import { FeishuAppTokens } from './feishu/feishu-app-tokens.js';
import { FeishuDecisions } from './feishu/feishu-decisions.js';
import { NotificationAdmin } from './notification-admin.service.js';
import {
  NOTIFICATION_SETTINGS_SOURCE,
  NOTIFICATIONS_OPTIONS,
  type NotificationSettingsSource,
  type NotificationsOptions,
} from './notifications.options.js';
import { NotificationAttemptEntity } from './outbox/notification-attempt.entity.js';
import { NotificationDeliveryEntity } from './outbox/notification-delivery.entity.js';
import { DeliveryRepository } from './outbox/delivery.repository.js';

/**
 * Approval notifications (ADR 020): channels per tenant, the outbox and its senders, decisions
 * from Feishu cards. `settingsSource` tells where a tenant's `notifications:` section is read
 * (the app gives the tenancy lib's tenant row; this lib does not depend on tenancy, which
 * imports its settings schema). Global: the gateway's controllers use its services.
 */
@Global()
@Module({})
export class NotificationsModule {
  static forRoot(
    options: NotificationsOptions,
    settingsSource: Omit<FactoryProvider<NotificationSettingsSource>, 'provide'>,
  ): DynamicModule {
    return {
      module: NotificationsModule,
      global: true,
      imports: [
        TypeOrmModule.forFeature([
          NotificationDeliveryEntity,
          NotificationAttemptEntity,
          CallbackNonceEntity,
        ]),
      ],
      providers: [
        { provide: NOTIFICATIONS_OPTIONS, useValue: options },
        { provide: NOTIFICATION_SETTINGS_SOURCE, ...settingsSource },
        TenantNotifications,
        DeliveryRepository,
        CallbackNonceRepository,
        ApprovalMessages,
        NotificationPlanner,
        FeishuAppTokens,
        DeliverySender,
        NotificationsScheduler,
        FeishuDecisions,
        NotificationAdmin,
        PlatformAlarms,
      ],
      exports: [NotificationAdmin, FeishuDecisions, NotificationsScheduler, PlatformAlarms],
    };
  }
}
