import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
        if (mode === 'hang') await sleep(20_000);
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
    // Served stale after waitOnStaleMs (30 ms), not after the loader (20 s): a hang guard, was `< 200`.
    expect(Date.now() - t).toBeLessThan(5_000);
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

describe('RefreshingCache with maxStaleMs', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A loader a test steers: answers `value`, fails, or never answers. */
  function steeredLoader() {
    const state = {
      value: 'v1' as string | undefined,
      mode: 'ok' as 'ok' | 'fail' | 'hang',
      delayMs: 0,
      calls: 0,
    };
    const load = async () => {
      state.calls++;
      if (state.mode === 'fail') throw new Error('db down');
      if (state.mode === 'hang') return new Promise<never>(() => undefined);
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      return state.value;
    };
    return { state, load };
  }

  /** Settles `p` into an inspectable record without an unhandled rejection. */
  function track<T>(p: T | Promise<T>) {
    const out: { settled: boolean; value?: T; error?: Error } = { settled: false };
    void Promise.resolve(p).then(
      (value) => Object.assign(out, { settled: true, value }),
      (error: Error) => Object.assign(out, { settled: true, error }),
    );
    return out;
  }

  it('with 0, makes a request for an expired entry wait for the refresh, however slow within the bound', async () => {
    const { state, load } = steeredLoader();
    const cache = new RefreshingCache(load, { ttlMs: 1_000, waitOnStaleMs: 2_000, maxStaleMs: 0 });
    expect(await cache.get('k')).toBe('v1');
    state.value = 'v2';
    state.delayMs = 1_500;
    await vi.advanceTimersByTimeAsync(1_000);
    const got = track(cache.get('k'));
    await vi.advanceTimersByTimeAsync(1_499);
    expect(got.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(got).toEqual({ settled: true, value: 'v2' });
  });

  it('with 0, answers what the refresh found: nothing, for an entry the database no longer has', async () => {
    const { state, load } = steeredLoader();
    const cache = new RefreshingCache(load, { ttlMs: 1_000, waitOnStaleMs: 2_000, maxStaleMs: 0 });
    expect(await cache.get('k')).toBe('v1');
    state.value = undefined;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await cache.get('k')).toBeUndefined();
  });

  it('with 0, fails with the loader’s error instead of serving the expired entry', async () => {
    const { state, load } = steeredLoader();
    const onStale = vi.fn();
    const cache = new RefreshingCache(load, { ttlMs: 1_000, waitOnStaleMs: 2_000, maxStaleMs: 0, onStale });
    expect(await cache.get('k')).toBe('v1');
    state.mode = 'fail';
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(cache.get('k')).rejects.toThrow('db down');
    // The entry is still there, not served, and the next request tries the database again.
    await expect(cache.get('k')).rejects.toThrow('db down');
    expect(state.calls).toBe(3);
    state.mode = 'ok';
    expect(await cache.get('k')).toBe('v1');
    expect(onStale).not.toHaveBeenCalled();
  });

  it('with 0, fails after waitOnStaleMs when the refresh does not answer, and recovers once it does', async () => {
    const { state, load } = steeredLoader();
    const cache = new RefreshingCache(load, { ttlMs: 1_000, waitOnStaleMs: 2_000, maxStaleMs: 0 });
    expect(await cache.get('k')).toBe('v1');
    state.value = 'v2';
    state.delayMs = 3_000;
    await vi.advanceTimersByTimeAsync(1_000);
    const first = track(cache.get('k'));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(first.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(first.error?.message).toBe('refresh slower than 2000 ms');
    expect(first.value).toBeUndefined();
    // Requests meanwhile join the one refresh in flight; when it lands they get its answer.
    const second = track(cache.get('k'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(second).toEqual({ settled: true, value: 'v2' });
    expect(state.calls).toBe(2);
    expect(cache.get('k')).toBe('v2');
  });

  it('with a finite limit, serves a stale entry up to that long past its TTL, then fails', async () => {
    const { state, load } = steeredLoader();
    const onStale = vi.fn();
    const cache = new RefreshingCache(load, { ttlMs: 1_000, waitOnStaleMs: 100, maxStaleMs: 3_000, onStale });
    expect(await cache.get('k')).toBe('v1');
    state.mode = 'fail';
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await cache.get('k')).toBe('v1');
    expect(onStale).toHaveBeenCalledTimes(1);
    state.mode = 'hang';
    await vi.advanceTimersByTimeAsync(1_000);
    const slow = track(cache.get('k'));
    await vi.advanceTimersByTimeAsync(100);
    expect(slow).toEqual({ settled: true, value: 'v1' });
    await vi.advanceTimersByTimeAsync(1_000);
    const tooOld = track(cache.get('k'));
    await vi.advanceTimersByTimeAsync(100);
    expect(tooOld.error?.message).toBe('refresh slower than 100 ms');
  });

  it('without a limit, serves the last value however long the database stays away (the default)', async () => {
    const { state, load } = steeredLoader();
    const cache = new RefreshingCache(load, { ttlMs: 1_000, waitOnStaleMs: 100 });
    expect(await cache.get('k')).toBe('v1');
    state.mode = 'fail';
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(await cache.get('k')).toBe('v1');
    state.mode = 'hang';
    const slow = track(cache.get('k'));
    await vi.advanceTimersByTimeAsync(100);
    expect(slow).toEqual({ settled: true, value: 'v1' });
  });
});
