import { Inject, Injectable, Logger } from '@nestjs/common';
import { PeriodicSweep } from '@toolgate/database';
import type { UpstreamServerEntity } from './entities/upstream-server.entity.js';
import { RefreshQueue } from './refresh-queue.js';
import { refreshFailureOf } from './refresh-failure.js';
import { UPSTREAMS_OPTIONS, type UpstreamsOptions } from './upstreams.options.js';
import { UpstreamConnections } from './upstream-connections.js';
import { REFRESH_ACTOR, UpstreamPinning } from './upstream-pinning.js';
import { UpstreamRepository } from './upstream.repository.js';

/**
 * Compares every upstream's tools with their pinned definitions, every `refreshIntervalMs` and
 * whenever a server says its tool list changed. Refreshes run a few at a time, tenants taking
 * turns, each within a time limit (RefreshQueue): one tenant's slow or dead servers delay nobody
 * else's quarantine. A failure is logged with its kind, never with what the upstream sent.
 */
@Injectable()
export class UpstreamRefresher extends PeriodicSweep {
  private readonly queue: RefreshQueue;
  private stopped = false;

  constructor(
    @Inject(UPSTREAMS_OPTIONS) options: UpstreamsOptions,
    private readonly repo: UpstreamRepository,
    private readonly pinning: UpstreamPinning,
    connections: UpstreamConnections,
  ) {
    super(options.refreshIntervalMs, new Logger(UpstreamRefresher.name), 'upstream refresh failed');
    this.queue = new RefreshQueue(options.refresh, (job, err) =>
      this.logger.warn(`upstream ${job.serverId} of tenant ${job.tenantId}: ${refreshFailureOf(err)}`),
    );
    connections.onToolsChanged = (tenantId, serverId) => {
      if (!this.stopped)
        this.refreshOne(tenantId, serverId).catch((err: unknown) =>
          this.logger.warn(`upstream ${serverId} of tenant ${tenantId}: ${refreshFailureOf(err)}`),
        );
    };
  }

  override onApplicationShutdown(): void {
    // A notification arriving while the gateway stops must not query a closed database.
    this.stopped = true;
    this.queue.stop();
    super.onApplicationShutdown();
  }

  /** Queues every server; the pass returns at once, the queue works them off. */
  protected async sweep(): Promise<void> {
    for (const server of await this.repo.allServers()) if (!this.stopped) this.enqueue(server);
  }

  private async refreshOne(tenantId: string, serverId: string): Promise<void> {
    const server = (await this.repo.serversOf(tenantId)).find((s) => s.id === serverId);
    if (server && !this.stopped) this.enqueue(server);
  }

  private enqueue(server: UpstreamServerEntity): void {
    this.queue.add({
      tenantId: server.tenantId,
      serverId: server.id,
      run: (signal) =>
        this.pinning
          .refresh(server, REFRESH_ACTOR, signal)
          .catch((err: unknown) =>
            this.logger.warn(
              `upstream ${server.name} of tenant ${server.tenantId}: ${refreshFailureOf(err)}`,
            ),
          ),
    });
  }
}
