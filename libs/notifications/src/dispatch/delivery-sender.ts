import { Inject, Injectable, Logger } from '@nestjs/common';
import { Egress, egressErrorOf, MAX_PEER_ANSWER_BYTES, readTextPrefix } from '@toolgate/egress';
import { cleanErrorMessage } from '@toolgate/toolkit';
import type { MessageKind } from '../channels/approval-message.js';
import { acceptedBy, channelRequest } from '../channels/channel-request.js';
import { scrubSecrets, secretsOf, type ChannelSecrets } from '../channels/channel-secrets.js';
import { TenantNotifications } from '../config/tenant-notifications.js';
import { FeishuAppTokens } from '../feishu/feishu-app-tokens.js';
import {
  MAX_RETRY_DELAY_MS,
  NOTIFICATIONS_OPTIONS,
  type NotificationsOptions,
} from '../notifications.options.js';
import { DeliveryRepository, type AttemptOutcome } from '../outbox/delivery.repository.js';
import type { DeliveryStatus, NotificationDeliveryEntity } from '../outbox/notification-delivery.entity.js';
import { ApprovalMessages } from './approval-messages.js';

/** Deliveries one pass sends at most. */
const BATCH = 50;

/** How much of a peer's answer an attempt reads and keeps (a robot's `{errcode, errmsg}`). */
const ANSWER_PREFIX_BYTES = 2_000;

/**
 * Sends due deliveries: each claimed by one gateway, each attempt logged, a failure retried with
 * exponential backoff until `maxAttempts`, then dead (shown in the console, retried by hand).
 * Secrets are read from the environment per attempt and scrubbed from every error kept or logged.
 * Channel URLs are the tenant's choice: every request goes out through the egress policy (a
 * destination inside the network is refused before anything is sent) and at most the start of
 * an answer is read.
 */
@Injectable()
export class DeliverySender {
  private readonly logger = new Logger(DeliverySender.name);

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly settings: TenantNotifications,
    private readonly messages: ApprovalMessages,
    private readonly appTokens: FeishuAppTokens,
    private readonly egress: Egress,
    @Inject(NOTIFICATIONS_OPTIONS) private readonly options: NotificationsOptions,
  ) {}

  /** Sends what is due now; answers how many attempts were made. */
  async sendDue(now = new Date()): Promise<number> {
    let n = 0;
    for (const d of await this.deliveries.due(now, BATCH)) {
      const lease = new Date(now.getTime() + 2 * this.options.sendTimeoutMs + 1_000);
      if (!(await this.deliveries.claim(d, lease, now))) continue;
      await this.attempt(d);
      n++;
    }
    return n;
  }

  private async attempt(d: NotificationDeliveryEntity): Promise<void> {
    const started = Date.now();
    const s = await this.settings.of(d.tenantId);
    const channel = s?.channels[d.channel];
    if (!channel)
      return this.finish(d, failure(`channel ${d.channel} is no longer configured`, started), true);
    const facts = await this.messages.facts(d.tenantId, d.approvalId);
    if (!facts) return this.finish(d, failure('the approval no longer exists', started), true);
    // Reminders and escalations are about a decision still to make; requests and outcomes stand.
    if ((d.kind === 'reminder' || d.kind === 'escalation') && facts.status !== 'pending') {
      await this.deliveries.skip(d, `approval already ${facts.status}`, new Date());
      return;
    }
    let secrets: ChannelSecrets = {};
    let accessToken = '';
    try {
      secrets = secretsOf(channel);
      if (channel.type === 'feishu_app')
        accessToken = await this.appTokens.token(
          {
            tenantId: d.tenantId,
            baseUrl: channel.url,
            appId: channel.appId ?? '',
            appSecret: secrets.secret ?? '',
          },
          this.options.sendTimeoutMs,
        );
      const message = await this.messages.message(facts, d.kind as MessageKind);
      const request = channelRequest(message, channel, secrets, d.id, new Date(), accessToken);
      const res = await this.egress.fetch(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(this.options.sendTimeoutMs),
      });
      const text = await readTextPrefix(res, Math.min(ANSWER_PREFIX_BYTES, MAX_PEER_ANSWER_BYTES));
      const refused = acceptedBy(channel.type, res.status, text);
      const outcome: AttemptOutcome = {
        ok: refused === null,
        httpStatus: res.status,
        error:
          refused === null
            ? null
            : cleanErrorMessage(scrubSecrets(refused, { ...secrets, accessToken }), 300),
        durationMs: Date.now() - started,
      };
      await this.finish(d, outcome, false);
    } catch (err) {
      const egress = egressErrorOf(err);
      if (egress) {
        // The address and the range that refused it are for the platform's log, not the delivery log.
        if (egress.detail)
          this.logger.warn(`delivery ${d.id} (${d.tenantId}/${d.channel}): ${egress.detail}`);
        // A refused destination or a redirect stays so until the channel is changed: no retries.
        const permanent = egress.failure === 'egress_denied' || egress.failure === 'redirect';
        return this.finish(d, failure(`refused: ${egress.message}`, started), permanent);
      }
      const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
      const why = cause ? `: ${cause.code ?? cause.message ?? ''}` : '';
      const message = cleanErrorMessage(`${(err as Error)?.message ?? String(err)}${why}`, 300);
      await this.finish(d, failure(scrubSecrets(message, { ...secrets, accessToken }), started), false);
    }
  }

  private async finish(d: NotificationDeliveryEntity, outcome: AttemptOutcome, permanent: boolean) {
    const now = new Date();
    let next: { status: DeliveryStatus; retryAt: Date | null };
    if (outcome.ok) next = { status: 'delivered', retryAt: null };
    else if (permanent || d.attempts + 1 >= this.options.maxAttempts)
      next = { status: 'dead', retryAt: null };
    else {
      const delay = Math.min(this.options.retryBaseMs * 2 ** d.attempts, MAX_RETRY_DELAY_MS);
      next = { status: 'pending', retryAt: new Date(now.getTime() + delay) };
    }
    if (!outcome.ok)
      this.logger.warn(
        `delivery ${d.id} (${d.tenantId}/${d.channel}) attempt ${d.totalAttempts + 1} failed: ${outcome.error}; ${next.status}`,
      );
    await this.deliveries.finish(d, outcome, next, now);
  }
}

function failure(error: string, started: number): AttemptOutcome {
  return { ok: false, httpStatus: null, error, durationMs: Date.now() - started };
}
