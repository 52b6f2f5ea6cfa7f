import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_OPS_TOKEN } from './ops.constants.js';
import { OpsSimulator } from './ops-simulator.js';

const auth = { authorization: `Bearer ${DEMO_OPS_TOKEN}` };

describe('OpsSimulator', () => {
  let sim: OpsSimulator;
  afterEach(() => sim.close());

  it('serves the fixed services and needs the bearer token', async () => {
    sim = new OpsSimulator();
    const url = await sim.start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ok = await fetch(`${url}/services/search-api`, { headers: auth });
    expect(await ok.json()).toEqual({
      name: 'search-api',
      status: 'degraded',
      instances: 2,
      updated_at: '2025-11-30T05:59:45.000Z',
    });
    expect((await fetch(`${url}/services/search-api`)).status).toBe(401);
    expect(
      (await fetch(`${url}/services/search-api`, { headers: { authorization: 'Bearer nope' } })).status,
    ).toBe(401);
    expect((await fetch(`${url}/services/__proto__`, { headers: auth })).status).toBe(404);
    expect(sim.stats).toMatchObject({ requests: 4, unauthorized: 2 });
  });

  it('generates the same log lines every time, newest first', async () => {
    sim = new OpsSimulator();
    const url = await sim.start();
    const search = async () =>
      (await (
        await fetch(`${url}/logs/search?service=search-api&window=1h&level=error&limit=500`, {
          headers: auth,
        })
      ).json()) as {
        lines: string[];
        total: number;
      };
    const first = await search();
    expect(first.total).toBe(120);
    expect(first.lines).toHaveLength(120);
    expect(await search()).toEqual(first);
    expect([...first.lines].sort().reverse()).toEqual(first.lines);
    expect(first.lines[0]).toMatch(/^2025-11-30T05:\d\d:\d\d\.\d{3}Z ERROR search-api \[search-api-[12]\] /);
  });

  it('restarts once per idempotency key and reports counters over HTTP', async () => {
    sim = new OpsSimulator();
    const url = await sim.start();
    const restart = (key: string | null, service = 'payment-api') =>
      fetch(`${url}/services/${service}/restart`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
        body: JSON.stringify({ reason: 'memory leak after release', requestedBy: 'k1' }),
      });
    expect((await restart(null)).status).toBe(400);
    const a = (await (await restart('s:c1')).json()) as { restart_id: string };
    const again = await restart('s:c1');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { restart_id: string }).restart_id).toBe(a.restart_id);
    expect((await restart('s:c1', 'search-api')).status).toBe(409);
    expect(sim.stats.restarts).toBe(1);

    const stats = (await (await fetch(`${url}/__stats`)).json()) as {
      restarts: number;
      idempotencyKeys: string[];
    };
    expect(stats).toMatchObject({ restarts: 1, idempotencyKeys: ['s:c1'] });
  });

  it('holds legacy-batch back, and close() ends even the held requests at once', async () => {
    sim = new OpsSimulator();
    const url = await sim.start();
    const pending = fetch(`${url}/services/legacy-batch`, { headers: auth }).then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await sim.close();
    // A hang guard: the held request would answer after 15 s.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await pending).toBe('cut');
  });

  it('answers legacy-batch after the configured delay', async () => {
    sim = new OpsSimulator({ slowDelayMs: 200 });
    const url = await sim.start();
    const started = Date.now();
    const res = await fetch(`${url}/services/legacy-batch`, { headers: auth });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});
