import { Redis } from 'ioredis';

/** A counter of calls in one fixed window. */
export interface WindowCount {
  readonly count: number;
  /** Milliseconds until the window ends. */
  readonly resetMs: number;
}

/** Where call counts live: in this process, or shared by every gateway through Redis. */
export interface QuotaStore {
  /** Counts one call against `key` in the current window of `windowMs`. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  close(): Promise<void>;
}

function windowOf(windowMs: number, now = Date.now()) {
  const start = Math.floor(now / windowMs) * windowMs;
  return { id: start, resetMs: start + windowMs - now };
}

/** One process's counters: enough for a single gateway. */
export class MemoryQuotaStore implements QuotaStore {
  private readonly counts = new Map<string, { window: number; count: number }>();

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const w = windowOf(windowMs);
    const entry = this.counts.get(key);
    if (!entry || entry.window !== w.id) {
      if (this.counts.size > 100_000) this.counts.clear();
      this.counts.set(key, { window: w.id, count: 1 });
      return { count: 1, resetMs: w.resetMs };
    }
    entry.count++;
    return { count: entry.count, resetMs: w.resetMs };
  }

  async close(): Promise<void> {}
}

/**
 * Counters in Redis, shared by every gateway: INCR and PEXPIRE in one MULTI, one key per window,
 * so a limit holds across processes and old windows clean themselves up.
 */
export class RedisQuotaStore implements QuotaStore {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: true });
    this.redis.on('error', () => undefined); // surfaced per call by hit()
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const w = windowOf(windowMs);
    const redisKey = `${this.prefix}:quota:${key}:${w.id}`;
    const result = await this.redis
      .multi()
      .incr(redisKey)
      .pexpire(redisKey, windowMs + 1_000)
      .exec();
    const count = Number(result?.[0]?.[1] ?? 0);
    return { count, resetMs: w.resetMs };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
