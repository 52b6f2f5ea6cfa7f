import { Inject, Injectable, Optional } from '@nestjs/common';
import { TransactionRunner } from '@toolgate/database';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import type { AuditActor } from '../audit-event.js';
import { AUDIT_OPTIONS, type AuditOptions } from '../audit.options.js';
import { AuditTrail } from '../audit-trail.js';
import { RetentionRepository, type RetentionRow } from './retention.repository.js';

/** Where tenants and their files' retention come from (the tenancy side; the gateway provides it). */
export interface RetentionPolicySource {
  /** The tenant file's `audit.retentionDays`, when it sets one. */
  fileRetentionDays(tenantId: string): Promise<number | undefined>;
  /** Every tenant the platform knows. */
  tenantIds(): Promise<string[]>;
  /**
   * A floor the tenant's own file adds above the platform's (its `compliance.retentionFloor`,
   * ADR 048), when it adds one.
   */
  tenantFloorDays?(tenantId: string): Promise<number | undefined>;
}
export const RETENTION_POLICY_SOURCE = Symbol('RETENTION_POLICY_SOURCE');

/** A tenant's retention as it applies now. */
export interface EffectiveRetention {
  /** Days events stay in the database after they occurred (never below the floor). */
  readonly days: number;
  /** Where the number comes from; `floor` when what was set is below today's floor. */
  readonly source: 'api' | 'file' | 'default' | 'floor';
  readonly floorDays: number;
  readonly hold: { readonly reason: string; readonly by: string; readonly since: Date } | null;
}

/** Longest retention a tenant may ask for (100 years: a typo guard, not a policy). */
export const MAX_RETENTION_DAYS = 36_500;

/**
 * Each tenant's retention and legal hold (ADR 037). Retention comes from the admin API, else the
 * tenant file, else the platform default, and is never below the floor (the platform's minimum,
 * 180 days under the 等保 profile). A change is refused below the floor; every change, of retention
 * or of hold, is an event of the tenant's trail with its before and after, committed with it.
 */
@Injectable()
export class RetentionPolicy {
  constructor(
    private readonly repo: RetentionRepository,
    private readonly transactions: TransactionRunner,
    private readonly trail: AuditTrail,
    @Inject(AUDIT_OPTIONS) private readonly options: AuditOptions,
    @Optional() @Inject(RETENTION_POLICY_SOURCE) private readonly source?: RetentionPolicySource,
  ) {}

  /** The platform's floor. */
  get floorDays(): number {
    return this.options.retention.floorDays;
  }

  /** A tenant's floor: the platform's, raised by what its file adds (ADR 048: tighten-only). */
  async floorOf(tenantId: string): Promise<number> {
    const own = await this.source?.tenantFloorDays?.(tenantId);
    return Math.max(this.floorDays, own ?? 0);
  }

  async effective(tenantId: string, row?: RetentionRow | null): Promise<EffectiveRetention> {
    const own = row === undefined ? await this.repo.row(tenantId) : row;
    const fromFile =
      own?.retentionDays === null || own?.retentionDays === undefined
        ? await this.source?.fileRetentionDays(tenantId)
        : undefined;
    const [set, source]: [number, EffectiveRetention['source']] =
      own?.retentionDays !== null && own?.retentionDays !== undefined
        ? [own.retentionDays, 'api']
        : fromFile !== undefined
          ? [fromFile, 'file']
          : [this.options.retention.defaultDays, 'default'];
    const floor = await this.floorOf(tenantId);
    return {
      days: Math.max(set, floor),
      source: set < floor ? 'floor' : source,
      floorDays: floor,
      hold:
        own?.hold && own.holdSince
          ? { reason: own.holdReason ?? '', by: own.holdBy ?? '', since: own.holdSince }
          : null,
    };
  }

  /** Every tenant the platform knows (and any with a retention row). */
  async tenantIds(): Promise<string[]> {
    const known = (await this.source?.tenantIds()) ?? [];
    return [...new Set([...known, ...(await this.repo.rows()).map((r) => r.tenantId)])].sort();
  }

  async exists(tenantId: string): Promise<boolean> {
    return !this.source || (await this.source.tenantIds()).includes(tenantId);
  }

  /** Sets a tenant's retention (null: back to its file's, or the default); refused below the floor. */
  async setRetention(tenantId: string, days: number | null, actor: AuditActor): Promise<EffectiveRetention> {
    const floor = await this.floorOf(tenantId);
    if (days !== null && days < floor)
      throw new ToolgateError(ErrorCode.RETENTION_BELOW_FLOOR, {
        params: { days, floor },
        details: { days, floorDays: floor },
      });
    await this.assertTenant(tenantId);
    return this.change(tenantId, actor, (row) => ({ ...row, retentionDays: days }));
  }

  /** Puts a tenant's trail on legal hold (nothing of it is purged), or lifts it (`reason` null). */
  async setHold(tenantId: string, reason: string | null, actor: AuditActor): Promise<EffectiveRetention> {
    await this.assertTenant(tenantId);
    return this.change(tenantId, actor, (row) =>
      reason === null
        ? { ...row, hold: false, holdReason: null, holdBy: null, holdSince: null }
        : {
            ...row,
            hold: true,
            holdReason: reason,
            holdBy: `${actor.type}:${actor.id}`,
            holdSince: new Date(),
          },
    );
  }

  /** Whether a tenant is on hold now (read again between purge batches). */
  async onHold(tenantId: string): Promise<boolean> {
    return (await this.repo.row(tenantId))?.hold ?? false;
  }

  private async assertTenant(tenantId: string): Promise<void> {
    if (!(await this.exists(tenantId)))
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `tenant ${tenantId}` } });
  }

  private async change(
    tenantId: string,
    actor: AuditActor,
    edit: (row: RetentionRow) => RetentionRow,
  ): Promise<EffectiveRetention> {
    const saved = await this.transactions.run(async (em) => {
      const before = (await this.repo.row(tenantId, em)) ?? {
        tenantId,
        retentionDays: null,
        hold: false,
        holdReason: null,
        holdBy: null,
        holdSince: null,
      };
      const after = edit(before);
      const floor = await this.floorOf(tenantId);
      await this.repo.save(em, after);
      await this.trail.recordIn(em, [
        {
          event: 'retention_changed',
          tenantId,
          actor,
          status: 'ok',
          details: { before: describe(before), after: describe(after), floorDays: floor },
        },
      ]);
      return after;
    });
    return this.effective(tenantId, saved);
  }
}

/** A retention row as an event states it. */
function describe(r: RetentionRow) {
  return {
    retentionDays: r.retentionDays,
    hold: r.hold,
    holdReason: r.holdReason,
    holdSince: r.holdSince?.toISOString() ?? null,
  };
}
