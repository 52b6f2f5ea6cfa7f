import { openRawSql, startTestGateway, type RawSql, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// More finished events than the 100,000 the overview used to load (oldest first): with a row cap
// the newest buckets came back short or not at all.
const HOURS = 10;
const HOUR_MS = 3_600_000;
const FROM = Date.parse('2026-03-02T00:00:00.000Z');
const TO = FROM + HOURS * HOUR_MS - 1;
/** Finished events in hour `h`: 10,000 in the first, 19,000 in the newest, 145,000 in all. */
const perHour = (h: number) => 10_000 + 1_000 * h;
// A tenant nobody verifies: these rows are not hash-chained.
const TENANT = 'stats_load';
const TOOLS = ['get_service_status', 'read_logs'] as const;
const ROWS_PER_INSERT = 2_000;

interface Expected {
  calls: number;
  errors: number;
  durations: number[];
}

/** The j-th finished event of hour `h`: tool, status and duration vary so every cell differs. */
function eventOf(h: number, j: number) {
  return {
    at: FROM + h * HOUR_MS + Math.floor((j * HOUR_MS) / perHour(h)),
    tool: TOOLS[j % 3 === 0 ? 0 : 1],
    error: (j + h) % 7 === 0,
    durationMs: 1 + ((j * 37 + h) % 400),
  };
}

const sqlTime = (ms: number) => `'${new Date(ms).toISOString().replace('T', ' ').replace('Z', '')}'`;

/** The exact 95th percentile of `values` (nearest rank), for checking the histogram's estimate. */
function exactP95(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.ceil(0.95 * sorted.length) - 1]!;
}

describe('admin stats over more events than fit in memory', () => {
  let gw: TestGateway;
  let sql: RawSql;
  const expected = new Map<string, Expected>();

  beforeAll(async () => {
    gw = await startTestGateway();
    sql = await openRawSql(gw.db);
    let seq = 0;
    let values: string[] = [];
    const flush = async () => {
      if (!values.length) return;
      await sql.query(
        `INSERT INTO audit_events (tenant_id, seq, event, tool, actor_type, actor_id, status,
           duration_ms, occurred_at, prev_hash, hash) VALUES ${values.join(',')}`,
      );
      values = [];
    };
    const row = (event: string, at: number, tool: string, status: string | null, durationMs: number | null) =>
      `('${TENANT}', ${++seq}, '${event}', '${tool}', 'api_key', 'key_stats', ${status ? `'${status}'` : 'NULL'},
        ${durationMs ?? 'NULL'}, ${sqlTime(at)}, 'x', 'x')`;
    // Outside the window on both sides, and `started` events inside it: none of them counts.
    values.push(row('finished', FROM - 1, TOOLS[0], 'ok', 1), row('finished', TO + 1, TOOLS[0], 'ok', 1));
    for (let h = 0; h < HOURS; h++) {
      for (let j = 0; j < perHour(h); j++) {
        const e = eventOf(h, j);
        const key = `${new Date(FROM + h * HOUR_MS).toISOString()}|${e.tool}`;
        const cell = expected.get(key) ?? expected.set(key, { calls: 0, errors: 0, durations: [] }).get(key)!;
        cell.calls++;
        if (e.error) cell.errors++;
        cell.durations.push(e.durationMs);
        values.push(row('finished', e.at, e.tool, e.error ? 'error' : 'ok', e.durationMs));
        if (j % 100 === 0) values.push(row('started', e.at, e.tool, null, null));
        if (values.length >= ROWS_PER_INSERT) await flush();
      }
    }
    await flush();
  }, 300_000);
  afterAll(async () => {
    await sql?.close();
    await gw?.close();
  });

  const stats = (key?: string) =>
    gw.api(
      'GET',
      `/v1/admin/stats?bucketMinutes=60&from=${new Date(FROM).toISOString()}&to=${new Date(TO).toISOString()}`,
      { key },
    );

  it('counts every finished event exactly, the newest hour included', async () => {
    const res = await stats();
    expect(res.status).toBe(200);
    const buckets = res.body.data.buckets.filter((b: any) => b.tenantId === TENANT);
    expect(buckets).toHaveLength(HOURS * TOOLS.length);
    const newest = new Date(FROM + (HOURS - 1) * HOUR_MS).toISOString();
    expect(buckets.filter((b: any) => b.start === newest).reduce((n: number, b: any) => n + b.calls, 0)).toBe(
      perHour(HOURS - 1),
    );
    for (const b of buckets) {
      const want = expected.get(`${b.start}|${b.tool}`)!;
      expect({ start: b.start, tool: b.tool, calls: b.calls, errors: b.errors }).toEqual({
        start: b.start,
        tool: b.tool,
        calls: want.calls,
        errors: want.errors,
      });
      expect(b.errorRate).toBeCloseTo(want.errors / want.calls, 10);
    }
    expect(buckets.reduce((n: number, b: any) => n + b.calls, 0)).toBe(145_000);
  });

  it('estimates p95 from the duration histogram, close to the exact value', async () => {
    const buckets = (await stats()).body.data.buckets.filter((b: any) => b.tenantId === TENANT);
    for (const b of buckets) {
      const exact = exactP95(expected.get(`${b.start}|${b.tool}`)!.durations);
      // Durations are spread evenly over 1–400 ms, so interpolating inside the 250–500 ms class
      // lands within a few ms of the truth; the class alone would only promise ±250 ms.
      expect(Math.abs(b.p95Ms - exact)).toBeLessThanOrEqual(4);
    }
  });

  it('shows a tenant admin only its own tenant', async () => {
    const acmeAdmin = await gw.createKey('tenant_admin', 'acme');
    const res = await stats(acmeAdmin);
    expect(res.status).toBe(200);
    expect(res.body.data.buckets.filter((b: any) => b.tenantId !== 'acme')).toEqual([]);
  });
});
