import { Injectable } from '@nestjs/common';
import { ApprovalReader } from '@toolgate/approvals';
import { ToolRegistry } from '@toolgate/toolkit';
import type { NotificationSettings } from '../config/notification-settings.schema.js';
import { TenantNotifications } from '../config/tenant-notifications.js';
import { DeliveryRepository } from '../outbox/delivery.repository.js';
import { occasionsAt, type RoutedApproval } from './routing.js';

/** How many pending approvals one sweep looks at. */
const SWEEP_LIMIT = 500;

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

  constructor(
    private readonly approvals: ApprovalReader,
    private readonly settings: TenantNotifications,
    private readonly deliveries: DeliveryRepository,
    private readonly registry: ToolRegistry,
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
