import { Injectable, type OnModuleInit } from '@nestjs/common';
import { RecipientRegions } from '@toolgate/data-protection';
import { UpstreamServers } from '@toolgate/upstreams';

/** How long an upstream's region, read for a processing record, is reused. */
const TTL_MS = 5_000;

/**
 * Composes the upstreams lib into the data-protection lib's region lookup (ADR 047): a processing
 * record that names an upstream reads the region from the upstream's row. Neither lib depends on
 * the other; calls of an imported tool already carry their upstream's region with the tool.
 */
@Injectable()
export class UpstreamRegionsBridge implements OnModuleInit {
  private readonly cache = new Map<string, { region: string | null | undefined; until: number }>();

  constructor(
    private readonly regions: RecipientRegions,
    private readonly upstreams: UpstreamServers,
  ) {}

  onModuleInit(): void {
    this.regions.lookUpUpstreamsWith(async (tenantId, name) => {
      const key = `${tenantId}\u0000${name}`;
      const hit = this.cache.get(key);
      if (hit && hit.until > Date.now()) return hit.region;
      const region = await this.upstreams.regionOf(tenantId, name);
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(key, { region, until: Date.now() + TTL_MS });
      return region;
    });
  }
}
