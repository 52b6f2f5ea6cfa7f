import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Egress, egressErrorOf, MAX_PEER_ANSWER_BYTES, readTextPrefix } from '@toolgate/egress';
import { cleanErrorMessage } from '@toolgate/toolkit';
import { acceptedBy } from '../channels/channel-request.js';
import { scrubSecrets, secretsOf, type ChannelSecrets } from '../channels/channel-secrets.js';
import { NOTIFICATIONS_OPTIONS, type NotificationsOptions } from '../notifications.options.js';
import { alarmRequest, type PlatformAlarm } from './alarm-request.js';

/** How much of a robot's answer is read (its `{errcode, errmsg}`). */
const ANSWER_PREFIX_BYTES = 2_000;

/** What raising an alarm did. */
export interface AlarmOutcome {
  /** False: held back by the rate limit (counted into the next one), or no channels. */
  readonly sent: boolean;
  /** Per channel: null when the peer took it, else why not. */
  readonly channels: Readonly<Record<string, string | null>>;
}

/**
 * Platform alarms through the notification channels of `notifications.alarms` (ADR 039): sent at
 * once, not through the outbox — an alarm is often about the database the outbox lives in. Each
 * kind is rate-limited to one message per `minIntervalMs` (a broken store fails every call), and
 * the next message says how many were held back. Every request goes out through the egress
 * policy; secrets come from the environment per message and are scrubbed from what is logged.
 */
@Injectable()
export class PlatformAlarms {
  private readonly logger = new Logger('PlatformAlarms');
  private readonly lastSent = new Map<string, number>();
  private readonly heldBack = new Map<string, number>();

  constructor(
    private readonly egress: Egress,
    @Inject(NOTIFICATIONS_OPTIONS) private readonly options: NotificationsOptions,
  ) {}

  /** Whether any channel is configured. */
  get configured(): boolean {
    return Object.keys(this.options.alarms.channels).length > 0;
  }

  /** Tells every channel of `alarm`, unless its kind was told less than `minIntervalMs` ago. */
  async raise(alarm: Omit<PlatformAlarm, 'suppressed' | 'gateway'>, now = Date.now()): Promise<AlarmOutcome> {
    if (!this.configured) return { sent: false, channels: {} };
    const last = this.lastSent.get(alarm.kind);
    if (last !== undefined && now - last < this.options.alarms.minIntervalMs) {
      this.heldBack.set(alarm.kind, (this.heldBack.get(alarm.kind) ?? 0) + 1);
      return { sent: false, channels: {} };
    }
    this.lastSent.set(alarm.kind, now);
    const suppressed = this.heldBack.get(alarm.kind) ?? 0;
    this.heldBack.delete(alarm.kind);
    const full: PlatformAlarm = { ...alarm, suppressed, gateway: this.options.publicUrl };
    const names = Object.keys(this.options.alarms.channels);
    const results = await Promise.all(names.map((name) => this.send(name, full)));
    return { sent: true, channels: Object.fromEntries(names.map((n, i) => [n, results[i]!])) };
  }

  private async send(name: string, alarm: PlatformAlarm): Promise<string | null> {
    const channel = this.options.alarms.channels[name]!;
    let secrets: ChannelSecrets = {};
    try {
      secrets = secretsOf(channel);
      const request = alarmRequest(alarm, channel, secrets, randomUUID());
      const res = await this.egress.fetch(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(this.options.sendTimeoutMs),
      });
      const text = await readTextPrefix(res, Math.min(ANSWER_PREFIX_BYTES, MAX_PEER_ANSWER_BYTES));
      const refused = acceptedBy(channel.type, res.status, text);
      if (refused)
        this.logger.warn(`alarm channel ${name} refused the alarm: ${scrubSecrets(refused, secrets)}`);
      return refused === null ? null : cleanErrorMessage(scrubSecrets(refused, secrets), 300);
    } catch (err) {
      const egress = egressErrorOf(err);
      const why = egress
        ? `refused: ${egress.message}`
        : cleanErrorMessage(scrubSecrets((err as Error)?.message ?? String(err), secrets), 300);
      this.logger.warn(`alarm channel ${name} did not take the alarm: ${why}`);
      return why;
    }
  }
}
