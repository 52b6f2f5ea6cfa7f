/** How a RefreshingCache behaves when its entries age. */
export interface RefreshingCacheOptions<K> {
  /** Entries younger than this are served without asking the loader. */
  readonly ttlMs: number;
  /**
   * How long a request waits for a refresh of an expired entry before it is served the stale one
   * (or, past `maxStaleMs`, fails). Keeps the hot path moving while the database is slow or gone.
   */
  readonly waitOnStaleMs: number;
  /**
   * How long past `ttlMs` an entry may still be served when its refresh fails or is slow. Default:
   * without limit (availability first). 0 means never: an expired entry waits for its refresh and
   * the request fails with the loader's error, or a timeout error after `waitOnStaleMs` — for
   * entries whose staleness is a security problem, such as a revoked credential.
   */
  readonly maxStaleMs?: number;
  /** Told when a stale entry is served because the refresh failed or was slow. */
  readonly onStale?: (key: K, reason: unknown) => void;
}

interface Entry<V> {
  value: V;
  loadedAt: number;
  refreshing?: Promise<V | undefined>;
}

/**
 * A read-through cache that survives the database: fresh entries are served synchronously;
 * expired ones are refreshed, and if the refresh fails or takes longer than `waitOnStaleMs` the
 * last known value is served while it is within `maxStaleMs` of expiry. A key never loaded waits
 * for (and fails with) the loader. A loader answering `undefined` means "does not exist": nothing
 * is cached, the entry is dropped.
 *
 * @example
 * // Authentication: a revoked key must stop working within the TTL, even while the database is slow.
 * new RefreshingCache(loadKey, { ttlMs: 2_000, waitOnStaleMs: 2_000, maxStaleMs: 0 });
 */
export class RefreshingCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private readonly firstLoads = new Map<K, Promise<V | undefined>>();

  constructor(
    private readonly load: (key: K) => Promise<V | undefined>,
    private readonly options: RefreshingCacheOptions<K>,
  ) {}

  get(key: K): V | undefined | Promise<V | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return this.first(key);
    if (Date.now() - entry.loadedAt < this.options.ttlMs) return entry.value;
    return this.refresh(key, entry);
  }

  /** Drops a key: the next `get` loads it again (a change this process made itself). */
  invalidate(key: K): void {
    this.entries.delete(key);
  }

  private first(key: K): Promise<V | undefined> {
    let pending = this.firstLoads.get(key);
    if (!pending) {
      pending = this.load(key)
        .then((value) => {
          if (value !== undefined) this.entries.set(key, { value, loadedAt: Date.now() });
          return value;
        })
        .finally(() => this.firstLoads.delete(key));
      this.firstLoads.set(key, pending);
    }
    return pending;
  }

  private refresh(key: K, entry: Entry<V>): Promise<V | undefined> {
    entry.refreshing ??= this.load(key).then(
      (value) => {
        if (value === undefined) this.entries.delete(key);
        else this.entries.set(key, { value, loadedAt: Date.now() });
        return value;
      },
      (err: unknown) => {
        entry.refreshing = undefined;
        throw err;
      },
    );
    const refreshing = entry.refreshing;
    return new Promise((resolve, reject) => {
      const fallBack = (reason: unknown) => {
        // Judged when falling back, not when asked: a slow refresh must not stretch the limit.
        if (Date.now() - entry.loadedAt >= this.options.ttlMs + (this.options.maxStaleMs ?? Infinity)) {
          reject(reason instanceof Error ? reason : new Error(String(reason)));
          return;
        }
        this.options.onStale?.(key, reason);
        resolve(entry.value);
      };
      const timer = setTimeout(
        () => fallBack(new Error(`refresh slower than ${this.options.waitOnStaleMs} ms`)),
        this.options.waitOnStaleMs,
      );
      refreshing.then(
        (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        (err: unknown) => {
          clearTimeout(timer);
          fallBack(err);
        },
      );
    });
  }
}
