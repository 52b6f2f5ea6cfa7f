import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUniqueViolation } from '@toolgate/database';
import { uuidv7 } from '@toolgate/toolkit';
import { DataSource, In, LessThan, LessThanOrEqual } from 'typeorm';
import { NotificationAttemptEntity } from './notification-attempt.entity.js';
import { NotificationDeliveryEntity, type DeliveryStatus } from './notification-delivery.entity.js';

/** A delivery to plan: one channel, one approval, one occasion. */
export interface PlannedDelivery {
  readonly tenantId: string;
  readonly approvalId: string;
  readonly channel: string;
  readonly channelType: string;
  readonly kind: string;
  readonly occasion: string;
}

/** The outcome of one attempt, as the log keeps it. */
export interface AttemptOutcome {
  readonly ok: boolean;
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

/** The outbox and its attempt log; every read and write names the tenant. */
@Injectable()
export class DeliveryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get deliveries() {
    return this.dataSource.getRepository(NotificationDeliveryEntity);
  }

  private get attempts() {
    return this.dataSource.getRepository(NotificationAttemptEntity);
  }

  /** Plans a delivery unless one for the same target exists; true when this call planned it. */
  async plan(p: PlannedDelivery, now: Date): Promise<boolean> {
    try {
      await this.deliveries.insert({
        ...p,
        id: `ntf_${uuidv7().replace(/-/g, '')}`,
        status: 'pending',
        attempts: 0,
        totalAttempts: 0,
        nextAttemptAt: now,
        leaseUntil: null,
        lastError: null,
        createdAt: now,
        updatedAt: now,
      });
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** Deliveries due now (pending, or sending under a lease that lapsed), oldest first. */
  async due(now: Date, limit: number): Promise<NotificationDeliveryEntity[]> {
    const pending = await this.deliveries.find({
      where: { status: 'pending', nextAttemptAt: LessThanOrEqual(now) },
      order: { nextAttemptAt: 'ASC' },
      take: limit,
    });
    const stale = await this.deliveries.find({
      where: { status: 'sending', leaseUntil: LessThan(now) },
      take: limit,
    });
    return [...pending, ...stale];
  }

  /**
   * Takes a delivery for sending: only one gateway wins (the update names the state it saw).
   * False when another gateway took it first.
   */
  async claim(d: NotificationDeliveryEntity, leaseUntil: Date, now: Date): Promise<boolean> {
    const result = await this.deliveries.update(
      { tenantId: d.tenantId, id: d.id, status: d.status, totalAttempts: d.totalAttempts },
      { status: 'sending', leaseUntil, updatedAt: now },
    );
    return (result.affected ?? 0) === 1;
  }

  /** Records an attempt and moves the delivery on (delivered, back to pending at `retryAt`, or dead). */
  async finish(
    d: NotificationDeliveryEntity,
    outcome: AttemptOutcome,
    next: { status: DeliveryStatus; retryAt: Date | null },
    now: Date,
  ): Promise<void> {
    const seq = d.totalAttempts + 1;
    await this.dataSource.transaction(async (em) => {
      await em.insert(NotificationAttemptEntity, {
        tenantId: d.tenantId,
        deliveryId: d.id,
        seq,
        status: outcome.ok ? 'ok' : 'failed',
        httpStatus: outcome.httpStatus,
        error: outcome.error?.slice(0, 500) ?? null,
        durationMs: Math.round(outcome.durationMs),
        attemptedAt: now,
      });
      await em.update(
        NotificationDeliveryEntity,
        { tenantId: d.tenantId, id: d.id, status: 'sending' },
        {
          status: next.status,
          attempts: d.attempts + 1,
          totalAttempts: seq,
          nextAttemptAt: next.retryAt ?? now,
          leaseUntil: null,
          lastError: outcome.ok ? null : (outcome.error?.slice(0, 500) ?? null),
          updatedAt: now,
        },
      );
    });
  }

  /** Marks a delivery that no longer needs sending (a reminder for an approval already decided). */
  async skip(d: NotificationDeliveryEntity, reason: string, now: Date): Promise<void> {
    await this.deliveries.update(
      { tenantId: d.tenantId, id: d.id, status: 'sending' },
      { status: 'skipped', leaseUntil: null, lastError: reason, updatedAt: now },
    );
  }

  /** A tenant's deliveries, newest first, optionally of some statuses. */
  list(tenantId: string, statuses: readonly DeliveryStatus[] | undefined, limit: number) {
    return this.deliveries.find({
      where: { tenantId, ...(statuses?.length ? { status: In([...statuses]) } : {}) },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  find(tenantId: string, id: string) {
    return this.deliveries.findOne({ where: { tenantId, id } });
  }

  attemptsOf(tenantId: string, deliveryIds: readonly string[]) {
    if (!deliveryIds.length) return Promise.resolve([]);
    return this.attempts.find({
      where: { tenantId, deliveryId: In([...deliveryIds]) },
      order: { seq: 'ASC' },
    });
  }

  /** Puts a dead delivery back in line with a fresh round of attempts; false unless it was dead. */
  async retry(tenantId: string, id: string, now: Date): Promise<boolean> {
    const result = await this.deliveries.update(
      { tenantId, id, status: 'dead' },
      { status: 'pending', attempts: 0, nextAttemptAt: now, updatedAt: now },
    );
    return (result.affected ?? 0) === 1;
  }
}
