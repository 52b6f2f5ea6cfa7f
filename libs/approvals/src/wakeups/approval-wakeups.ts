import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InstanceRegistry } from '@toolgate/database';
import { APPROVALS_OPTIONS, type ApprovalsOptions } from '../approvals.options.js';
import { ApprovalDecisions, type ApprovalDecision } from '../approvals/approval-decisions.js';
import { ApprovalRepository } from '../approvals/approval.repository.js';
import { ApprovedCallRunner } from '../approvals/approved-call.runner.js';
import type { CallRef } from '@toolgate/calls';
import { RedisWakeups } from './redis-wakeups.js';

/**
 * Wake-ups across gateways when `redisUrl` is set (else every method is a no-op and polling does
 * it all): this gateway's decisions go out on Redis, other gateways' decisions reach this one's
 * waiters once the database confirms them, and approved calls held by a gateway that died are
 * claimed and run here within a lease (the claim in the database keeps it to one run).
 */
@Injectable()
export class ApprovalWakeups implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ApprovalWakeups');
  private readonly redis?: RedisWakeups;

  constructor(
    @Inject(APPROVALS_OPTIONS) options: ApprovalsOptions,
    private readonly instances: InstanceRegistry,
    private readonly decisions: ApprovalDecisions,
    private readonly approvals: ApprovalRepository,
    private readonly runner: ApprovedCallRunner,
  ) {
    if (!options.redisUrl) return;
    this.redis = new RedisWakeups(options.redisUrl, options.redisPrefix ?? 'toolgate', instances.instanceId, {
      decided: (d) => void this.confirmed(d),
      orphaned: (refs) => refs.forEach((ref) => void this.takeOver(ref)),
      trouble: (err) =>
        err
          ? this.logger.warn(`Redis unavailable, approvals fall back to polling: ${err.message}`)
          : this.logger.log('Redis reachable again: approval wake-ups resume'),
    });
  }

  onApplicationBootstrap(): void {
    if (!this.redis) return;
    this.decisions.relayTo({ announce: (d) => void this.redis!.announce(d) });
    this.redis.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.decisions.relayTo(undefined);
    await this.redis?.close();
  }

  /**
   * Marks an approved call as this gateway's to run, from before its decision commits until
   * `release`. Start it before the transaction and await it after: it costs no round trip of its own.
   */
  hold(ref: CallRef): Promise<void> {
    return this.redis ? this.redis.hold(ref) : Promise.resolve();
  }

  release(ref: CallRef): void {
    if (this.redis) void this.redis.release(ref);
  }

  /** Another gateway's message says a call was decided: believed only if the database says so too. */
  private async confirmed(d: ApprovalDecision): Promise<void> {
    try {
      const approval = await this.approvals.find(d.approvalId);
      if (!approval || approval.tenantId !== d.tenantId || approval.callId !== d.callId) return;
      if (approval.status === 'pending') return;
      this.decisions.deliver({
        tenantId: approval.tenantId,
        approvalId: approval.id,
        callId: approval.callId,
      });
    } catch (err) {
      this.logger.warn(`checking a decision of another gateway: ${(err as Error).message}`);
    }
  }

  /** An approved call its gateway died holding: the claim decides who runs it, once. */
  private async takeOver(ref: CallRef): Promise<void> {
    try {
      const call = await this.runner.run(ref);
      if (call?.approvalId && call.instanceId === this.instances.instanceId) {
        this.logger.log(`ran approved call ${ref.callId} left by a stopped gateway`);
        this.decisions.publish({ tenantId: call.tenantId, approvalId: call.approvalId, callId: call.callId });
      }
    } catch (err) {
      this.logger.warn(`taking over approved call ${ref.callId}: ${(err as Error).message}`);
    }
  }
}
