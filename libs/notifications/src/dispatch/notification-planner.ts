import { Injectable } from '@nestjs/common';
import { ApprovalReader } from '@toolgate/approvals';
import { ToolRegistry } from '@toolgate/toolkit';
import type { NotificationSettings } from '../config/notification-settings.schema.js';
import { TenantNotifications } from '../config/tenant-notifications.js';
import { DeliveryRepository } from '../outbox/delivery.repository.js';
import { ApprovalMessages } from './approval-messages.js';
import { occasionsAt, routedChannels, type RoutedApproval } from './routing.js';

/** How many pending approvals one sweep looks at. */
const SWEEP_LIMIT = 500;
/** How long after its decision an approval's outcome message is still planned. */
const OUTCOME_WINDOW_MS = 3_600_000;

/** The approval fields planning needs. */
interface PendingApproval {
  readonly id: string;
  readonly tenantId: string;
  readonly tool: string;
  readonly riskLevel: string;
  readonly expiresAt: Date;
  readonly status: string;
}

/**
 * Turns pending approvals into outbox rows: at once when an approval is created on this gateway,
 * and on every sweep for all pending approvals (those created elsewhere or while a write failed,
 * and the reminders and escalations whose time has come). Planning twice is harmless: the outbox
 * keeps one row per (tenant, approval, channel, occasion).
 */
@Injectable()
export class NotificationPlanner {
  /** Targets this process has already planned, for pending approvals only (rebuilt each sweep). */
  private planned = new Set<string>();
  /** Decided approvals whose outcome this process has planned, and when each was decided. */
  private readonly outcomesPlanned = new Map<string, number>();
  /** Decisions up to this time have all had their outcome planned (or had no channel). */
  private outcomesThrough = 0;

  constructor(
    private readonly approvals: ApprovalReader,
    private readonly settings: TenantNotifications,
    private readonly deliveries: DeliveryRepository,
    private readonly registry: ToolRegistry,
    private readonly messages: ApprovalMessages,
  ) {}

  /** Plans the messages of one approval; answers how many new deliveries there are. */
  async planApproval(tenantId: string, approvalId: string, now = new Date()): Promise<number> {
    const a = await this.approvals.find(tenantId, approvalId);
    if (!a || a.status !== 'pending') return 0;
    const s = await this.settings.of(tenantId);
    return s ? this.plan(s, a, now, new Set()) : 0;
  }

  /** Plans what every pending approval should have by now. */
  async sweep(now = new Date()): Promise<number> {
    const pending = await this.approvals.pending(SWEEP_LIMIT);
    const settings = new Map<string, NotificationSettings | null>();
    const seen = new Set<string>();
    let n = 0;
    for (const a of pending) {
      if (!settings.has(a.tenantId)) settings.set(a.tenantId, await this.settings.of(a.tenantId));
      const s = settings.get(a.tenantId);
      if (s) n += await this.plan(s, a, now, seen);
    }
    this.planned = seen;
    return n + (await this.planOutcomes(now));
  }

  /**
   * Plans the outcome message of every approval decided in the last hour, on the channels its
   * request went to: at once for a denial or an expiry, once the call has ended for an approval
   * (an approved restart that failed says so). The outbox keeps one per approval and channel, so
   * several gateways planning the same outcome send it once.
   */
  async planOutcomes(now = new Date()): Promise<number> {
    const horizon = now.getTime() - OUTCOME_WINDOW_MS;
    for (const [key, at] of this.outcomesPlanned) if (at <= horizon) this.outcomesPlanned.delete(key);
    const decided = await this.approvals.decidedSince(
      new Date(Math.max(horizon, this.outcomesThrough)),
      SWEEP_LIMIT,
    );
    const settings = new Map<string, NotificationSettings | null>();
    let n = 0;
    let unresolved: number | undefined;
    for (const a of decided) {
      const key = `${a.tenantId}\u0000${a.id}`;
      const at = a.decidedAt!.getTime();
      if (this.outcomesPlanned.has(key)) continue;
      if (!settings.has(a.tenantId)) settings.set(a.tenantId, await this.settings.of(a.tenantId));
      const s = settings.get(a.tenantId);
      const channels = s ? routedChannels(s, this.routed(a)) : [];
      const outcome = channels.length
        ? await this.messages.outcomeOf({ ...a, approvalId: a.id })
        : 'no channel';
      if (outcome === null) {
        unresolved ??= at;
        continue;
      }
      for (const channel of channels) {
        const created = await this.deliveries.plan(
          {
            tenantId: a.tenantId,
            approvalId: a.id,
            channel,
            channelType: s!.channels[channel]?.type ?? 'unknown',
            kind: 'outcome',
            occasion: 'outcome',
          },
          now,
        );
        if (created) n++;
      }
      this.outcomesPlanned.set(key, at);
    }
    // The next pass starts at the oldest decision still waiting for its call (ties included).
    const last = decided.at(-1)?.decidedAt?.getTime();
    const through = unresolved ?? last;
    if (through !== undefined) this.outcomesThrough = Math.max(this.outcomesThrough, through - 1);
    return n;
  }

  private async plan(s: NotificationSettings, a: PendingApproval, now: Date, seen: Set<string>) {
    let n = 0;
    for (const o of occasionsAt(s, this.routed(a), now)) {
      for (const channel of o.channels) {
        const key = `${a.tenantId}\u0000${a.id}\u0000${channel}\u0000${o.occasion}`;
        seen.add(key);
        if (this.planned.has(key)) continue;
        const created = await this.deliveries.plan(
          {
            tenantId: a.tenantId,
            approvalId: a.id,
            channel,
            channelType: s.channels[channel]?.type ?? 'unknown',
            kind: o.kind,
            occasion: o.occasion,
          },
          now,
        );
        this.planned.add(key);
        if (created) n++;
      }
    }
    return n;
  }

  private routed(a: PendingApproval): RoutedApproval {
    return {
      riskLevel: a.riskLevel,
      tool: a.tool,
      dataDomains: this.registry.get(a.tool)?.risk.dataDomains ?? [],
      expiresAt: a.expiresAt,
    };
  }
}
