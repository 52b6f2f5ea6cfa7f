import { Module } from '@nestjs/common';
import { FeishuCallbackController } from './feishu-callback.controller.js';
import { NotificationsController } from './notifications.controller.js';

/** Notification admin (tenant admins) and the public Feishu card callback. */
@Module({ controllers: [NotificationsController, FeishuCallbackController] })
export class NotificationsHttpModule {}
