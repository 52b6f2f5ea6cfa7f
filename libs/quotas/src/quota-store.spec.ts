import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryQuotaStore } from './quota-store.js';

const MINUTE = 60_000;
/** 2026-01-01T00:00:00Z: a whole number of minutes since the epoch. */
const MINUTE_START = Date.UTC(2026, 0, 1);

describe('MemoryQuotaStore', () => {
  let store: MemoryQuotaStore;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    store = new MemoryQuotaStore();
  });
  afterEach(() => vi.useRealTimers());

  it('counts calls in a fixed window and tells how long until it ends', async () => {
    vi.setSystemTime(MINUTE_START + 15_000);
    expect(await store.hit('acme:tenant:*', MINUTE)).toEqual({ count: 1, resetMs: 45_000 });
    vi.setSystemTime(MINUTE_START + 59_999);
    expect(await store.hit('acme:tenant:*', MINUTE)).toEqual({ count: 2, resetMs: 1 });
  });

  it('starts again at zero when the clock crosses into the next window, however few ms later', async () => {
    vi.setSystemTime(MINUTE_START + 59_999);
    await store.hit('k', MINUTE);
    await store.hit('k', MINUTE);
    vi.setSystemTime(MINUTE_START + MINUTE);
    expect(await store.hit('k', MINUTE)).toEqual({ count: 1, resetMs: MINUTE });
  });

  it('aligns windows to the clock, not to the first call: a window is not a sliding minute', async () => {
    vi.setSystemTime(MINUTE_START + 30_000);
    await store.hit('k', MINUTE);
    vi.setSystemTime(MINUTE_START + 70_000); // 40 s after the first call, but a new window
    expect((await store.hit('k', MINUTE)).count).toBe(1);
    vi.setSystemTime(MINUTE_START + 119_000);
    expect((await store.hit('k', MINUTE)).count).toBe(2);
  });

  it('keeps one counter per key', async () => {
    vi.setSystemTime(MINUTE_START);
    await store.hit('acme:key:k1:*', MINUTE);
    await store.hit('acme:key:k1:*', MINUTE);
    expect((await store.hit('acme:key:k2:*', MINUTE)).count).toBe(1);
    expect((await store.hit('globex:key:k1:*', MINUTE)).count).toBe(1);
    expect((await store.hit('acme:key:k1:*', MINUTE)).count).toBe(3);
  });
});
