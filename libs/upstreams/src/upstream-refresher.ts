import { Inject, Injectable, Logger } from '@nestjs/common';
import { PeriodicSweep } from '@toolgate/database';
import { UPSTREAMS_OPTIONS, type UpstreamsOptions } from './upstreams.options.js';
import { UpstreamConnections } from './upstream-connections.js';
import { logReason } from './upstream-failures.js';
import { UpstreamPinning } from './upstream-pinning.js';
import { UpstreamRepository } from './upstream.repository.js';

/**
 * Compares every upstream's tools with their pinned definitions, every `refreshIntervalMs` and
 * whenever a server says its tool list changed. One unreachable server is logged and skipped; it
 * does not hold up the others.
 */
@Injectable()
export class UpstreamRefresher extends PeriodicSweep {
  constructor(
    @Inject(UPSTREAMS_OPTIONS) options: UpstreamsOptions,
    private readonly repo: UpstreamRepository,
    private readonly pinning: UpstreamPinning,
    connections: UpstreamConnections,
  ) {
    super(options.refreshIntervalMs, new Logger(UpstreamRefresher.name), 'upstream refresh failed');
    connections.onToolsChanged = (tenantId, serverId) => {
      if (!this.stopped)
        this.refreshOne(tenantId, serverId).catch((err: unknown) =>
          this.logger.warn(`upstream ${serverId} of tenant ${tenantId}: ${logReason(err)}`),
        );
    };
  }

  private stopped = false;

  override onApplicationShutdown(): void {
    // A notification arriving while the gateway stops must not query a closed database.
    this.stopped = true;
    super.onApplicationShutdown();
  }

  protected async sweep(): Promise<void> {
    for (const server of await this.repo.allServers()) {
      if (this.stopped) return;
      await this.pinning
        .refresh(server)
        .catch((err: unknown) =>
          this.logger.warn(`upstream ${server.name} of tenant ${server.tenantId}: ${logReason(err)}`),
        );
    }
  }

  private async refreshOne(tenantId: string, serverId: string): Promise<void> {
    const server = (await this.repo.serversOf(tenantId)).find((s) => s.id === serverId);
    if (server)
      await this.pinning
        .refresh(server)
        .catch((err: unknown) =>
          this.logger.warn(`upstream ${server.name} of tenant ${tenantId}: ${logReason(err)}`),
        );
  }
}
