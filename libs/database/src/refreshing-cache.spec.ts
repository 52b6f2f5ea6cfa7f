import { describe, expect, it } from 'vitest';
import { RefreshingCache } from './refreshing-cache.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('RefreshingCache', () => {
  it('serves fresh entries synchronously and refreshes expired ones', async () => {
    let version = 1;
    const cache = new RefreshingCache(async () => version, { ttlMs: 20, waitOnStaleMs: 100 });
    expect(await cache.get('k')).toBe(1);
    expect(cache.get('k')).toBe(1);
    version = 2;
    await sleep(25);
    expect(await cache.get('k')).toBe(2);
  });

  it('serves the stale value when the loader fails or hangs, and only fails keys never loaded', async () => {
    let mode: 'ok' | 'fail' | 'hang' = 'ok';
    const stale: unknown[] = [];
    const cache = new RefreshingCache(
      async (key: string) => {
        if (mode === 'fail') throw new Error('db down');
        if (mode === 'hang') await sleep(1_000);
        return `v-${key}`;
      },
      { ttlMs: 10, waitOnStaleMs: 30, onStale: (_k, e) => stale.push(e) },
    );
    expect(await cache.get('a')).toBe('v-a');
    mode = 'fail';
    await sleep(15);
    expect(await cache.get('a')).toBe('v-a');
    await expect(cache.get('b')).rejects.toThrow('db down');
    mode = 'hang';
    await sleep(15);
    const t = Date.now();
    expect(await cache.get('a')).toBe('v-a');
    expect(Date.now() - t).toBeLessThan(200);
    expect(stale.length).toBeGreaterThanOrEqual(2);
  });

  it('forgets keys the loader no longer finds', async () => {
    let exists = true;
    const cache = new RefreshingCache(async () => (exists ? 'x' : undefined), {
      ttlMs: 5,
      waitOnStaleMs: 50,
    });
    expect(await cache.get('k')).toBe('x');
    exists = false;
    await sleep(10);
    expect(await cache.get('k')).toBeUndefined();
  });
});
