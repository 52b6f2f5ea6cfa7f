import { Module } from '@nestjs/common';
import { AdminActs } from '../http/admin-acts.js';
import { FeishuCallbackController } from './feishu-callback.controller.js';
import { NotificationsController } from './notifications.controller.js';

/** Notification admin (tenant admins) and the public Feishu card callback. */
@Module({ controllers: [NotificationsController, FeishuCallbackController], providers: [AdminActs] })
export class NotificationsHttpModule {}
