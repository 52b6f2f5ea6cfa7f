import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ApprovalEvents } from '@toolgate/approvals';
import { PeriodicSweep } from '@toolgate/database';
import { CallbackNonceRepository } from '../feishu/callback-nonce.repository.js';
import { NOTIFICATIONS_OPTIONS, type NotificationsOptions } from '../notifications.options.js';
import { DeliverySender } from './delivery-sender.js';
import { NotificationPlanner } from './notification-planner.js';

/**
 * Notifications off the call's path: a new approval on this gateway is planned and sent at once
 * (fire-and-forget: the parked call has already answered); every `pollMs` each gateway plans what
 * pending approvals should have (those parked elsewhere, reminders, escalations) and sends what is
 * due, so a message survives a crash between the approval's commit and its send.
 */
@Injectable()
export class NotificationsScheduler extends PeriodicSweep implements OnModuleInit {
  private kicking: Promise<void> | null = null;
  private kickAgain = false;
  private lastNonceSweep = 0;

  constructor(
    private readonly events: ApprovalEvents,
    private readonly planner: NotificationPlanner,
    private readonly sender: DeliverySender,
    private readonly nonces: CallbackNonceRepository,
    @Inject(NOTIFICATIONS_OPTIONS) private readonly options: NotificationsOptions,
  ) {
    super(options.pollMs, new Logger(NotificationsScheduler.name), 'notification pass failed');
  }

  onModuleInit(): void {
    this.events.subscribe(({ tenantId, approvalId }) => {
      void this.planner
        .planApproval(tenantId, approvalId)
        .then((n) => (n ? this.kick() : undefined))
        .catch((err: Error) =>
          this.logger.warn(`planning ${approvalId} failed (the next pass retries): ${err.message}`),
        );
    });
  }

  /** Sends due deliveries now; calls during a pass make one more pass after it. */
  kick(): Promise<void> {
    if (this.kicking) {
      this.kickAgain = true;
      return this.kicking;
    }
    this.kicking = (async () => {
      try {
        do {
          this.kickAgain = false;
          await this.sender.sendDue();
        } while (this.kickAgain);
      } catch (err) {
        this.logger.warn(`sending notifications failed: ${(err as Error).message}`);
      } finally {
        this.kicking = null;
      }
    })();
    return this.kicking;
  }

  protected async sweep(): Promise<void> {
    await this.planner.sweep();
    await this.kick();
    const now = Date.now();
    if (now - this.lastNonceSweep > 60_000) {
      this.lastNonceSweep = now;
      await this.nonces.forgetBefore(new Date(now - 2 * this.options.callbackWindowMs));
    }
  }
}
