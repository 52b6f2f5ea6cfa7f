import { Logger } from '@nestjs/common';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UpstreamServerEntity } from './entities/upstream-server.entity.js';
import { DEFAULT_UPSTREAMS_OPTIONS } from './upstreams.options.js';
import type { UpstreamConnections } from './upstream-connections.js';
import type { UpstreamPinning } from './upstream-pinning.js';
import { UpstreamRefresher } from './upstream-refresher.js';
import type { UpstreamRepository } from './upstream.repository.js';

const server = (tenantId: string, name: string) =>
  ({ tenantId, id: `id-${name}`, name }) as UpstreamServerEntity;

/** A refresher over fake servers whose refreshes do what `refresh` says; `sweep` runs one pass. */
function refresherOf(
  servers: UpstreamServerEntity[],
  refresh: (s: UpstreamServerEntity) => Promise<unknown>,
) {
  const repo = { allServers: async () => servers } as unknown as UpstreamRepository;
  const pinning = { refresh: (s: UpstreamServerEntity) => refresh(s) } as unknown as UpstreamPinning;
  const refresher = new UpstreamRefresher(
    DEFAULT_UPSTREAMS_OPTIONS,
    repo,
    pinning,
    {} as UpstreamConnections,
  );
  return {
    refresher,
    sweep: () => (refresher as unknown as { sweep(): Promise<void> }).sweep(),
  };
}

describe('the periodic upstream refresh', () => {
  afterEach(() => vi.restoreAllMocks());

  it("sees a fast tenant's change while another tenant's slow servers still hang", async () => {
    const order: string[] = [];
    let releaseSlow!: () => void;
    const slow = new Promise<void>((resolve) => (releaseSlow = resolve));
    let fastSeen!: () => void;
    const fast = new Promise<void>((resolve) => (fastSeen = resolve));
    const servers = [
      ...['s1', 's2', 's3', 's4', 's5'].map((id) => server('acme', id)),
      server('globex', 'quick'),
    ];
    const { refresher, sweep } = refresherOf(servers, async (s) => {
      if (s.tenantId === 'acme') {
        order.push(`start ${s.name}`);
        await slow;
        order.push(`end ${s.name}`);
      } else {
        order.push('globex refreshed');
        fastSeen();
      }
    });
    const pass = sweep();
    await fast;
    // By order, not by time: globex was compared before any of acme's servers answered, and acme
    // held only its share of the slots.
    expect(order).toEqual(['start s1', 'start s2', 'globex refreshed']);
    releaseSlow();
    await pass;
    refresher.onApplicationShutdown();
  });

  it('logs why a refresh failed without what the upstream sent', async () => {
    const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    let failed!: () => void;
    const done = new Promise<void>((resolve) => (failed = resolve));
    const { refresher, sweep } = refresherOf([server('acme', 'crm')], async () => {
      setImmediate(failed);
      throw new StreamableHTTPError(
        500,
        'Error POSTing to endpoint: {"error":"db down","db_password":"hunter2","dsn":"mysql://u:p@db/x"}',
      );
    });
    await sweep();
    await done;
    await new Promise((resolve) => setImmediate(resolve));
    const logged = warn.mock.calls.map((c) => String(c[0])).join('\n');
    expect(logged).toContain('upstream crm of tenant acme: the server answered HTTP 500');
    expect(logged).not.toContain('hunter2');
    expect(logged).not.toContain('db down');
    refresher.onApplicationShutdown();
  });
});
