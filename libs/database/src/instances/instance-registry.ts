import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Not, type Repository } from 'typeorm';
import { runPeriodically } from '../periodic.js';
import { GatewayInstanceEntity } from './gateway-instance.entity.js';

/** How this process names itself and how often it proves it is alive. */
export interface InstanceOptions {
  /** Stable across restarts when set (TOOLGATE_INSTANCE_ID): a restart then reclaims its own calls at once. */
  readonly instanceId?: string;
  readonly heartbeatMs: number;
  /** An instance silent for this long is taken for dead. */
  readonly staleAfterMs: number;
}

/** The defaults of the settings file (`config/toolgate.yaml` shows them; a spec keeps the two equal). */
export const DEFAULT_INSTANCE_OPTIONS: Pick<InstanceOptions, 'heartbeatMs' | 'staleAfterMs'> = {
  heartbeatMs: 2_000,
  staleAfterMs: 15_000,
};

export const INSTANCE_OPTIONS = Symbol('INSTANCE_OPTIONS');

/**
 * This gateway's identity among the gateways sharing a database, with a heartbeat so that a
 * process that died mid-call can be told apart from one that is merely busy.
 */
@Injectable()
export class InstanceRegistry implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(InstanceRegistry.name);
  readonly instanceId: string;
  readonly bootId = randomUUID();
  private stopHeartbeat?: () => void;

  constructor(
    @InjectRepository(GatewayInstanceEntity) private readonly repo: Repository<GatewayInstanceEntity>,
    @Inject(INSTANCE_OPTIONS) private readonly options: InstanceOptions,
  ) {
    this.instanceId = options.instanceId ?? `${hostname()}:${process.pid}:${this.bootId.slice(0, 8)}`;
  }

  async onApplicationBootstrap(): Promise<void> {
    const now = new Date();
    await this.repo.save(
      Object.assign(new GatewayInstanceEntity(), {
        instanceId: this.instanceId,
        bootId: this.bootId,
        startedAt: now,
        heartbeatAt: now,
      }),
    );
    this.stopHeartbeat = runPeriodically(
      this.options.heartbeatMs,
      () =>
        this.repo.update({ instanceId: this.instanceId }, { heartbeatAt: new Date(), bootId: this.bootId }),
      (err) => this.logger.warn(`heartbeat failed: ${err.message}`),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopHeartbeat?.();
  }

  /** Instances other than this one whose heartbeat is older than the stale threshold. */
  async staleInstances(): Promise<string[]> {
    const cutoff = new Date(Date.now() - this.options.staleAfterMs);
    const rows = await this.repo.find({
      where: { heartbeatAt: LessThan(cutoff), instanceId: Not(this.instanceId) },
    });
    return rows.map((r) => r.instanceId);
  }

  /** True when an instance's heartbeat is recent (this instance always is). */
  async isAlive(instanceId: string): Promise<boolean> {
    if (instanceId === this.instanceId) return true;
    const row = await this.repo.findOne({ where: { instanceId } });
    return !!row && Date.now() - row.heartbeatAt.getTime() < this.options.staleAfterMs;
  }

  /**
   * True when an instance is alive and still in the boot given: a process restarted under a stable
   * id (TOOLGATE_INSTANCE_ID) is another boot, and what the old one held in memory is gone.
   */
  async isAliveInBoot(instanceId: string, bootId: string): Promise<boolean> {
    if (instanceId === this.instanceId) return bootId === this.bootId;
    const row = await this.repo.findOne({ where: { instanceId } });
    return (
      !!row && row.bootId === bootId && Date.now() - row.heartbeatAt.getTime() < this.options.staleAfterMs
    );
  }
}
