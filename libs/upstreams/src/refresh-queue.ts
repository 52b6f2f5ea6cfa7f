/** How many refreshes run at once, and how many of them one tenant may hold. */
export interface RefreshQueueLimits {
  readonly concurrency: number;
  readonly perTenant: number;
  /** A refresh gives its slot back after this long, even if it has not ended (its signal is aborted). */
  readonly timeoutMs: number;
}

/** One server to refresh: who it belongs to, and the work (given a signal that ends at the limit). */
export interface RefreshJob {
  readonly tenantId: string;
  readonly serverId: string;
  readonly run: (signal: AbortSignal) => Promise<unknown>;
}

/**
 * Refreshes of upstream servers with bounded concurrency, fair between tenants, each within a time
 * limit: tenants take turns (round robin), one tenant holds at most `perTenant` slots, and a server
 * that does not answer holds its slot at most `timeoutMs`. So one tenant's slow servers delay
 * neither another tenant's quarantines nor its own other servers beyond the limit. A server already
 * queued is not queued twice; one asked for while it runs is run once more after.
 */
export class RefreshQueue {
  /** Waiting jobs by tenant, in the order tenants first asked. */
  private readonly waiting = new Map<string, RefreshJob[]>();
  /** Servers (`tenant\0server`) waiting, running, and asked for again while running. */
  private readonly queued = new Set<string>();
  private readonly active = new Set<string>();
  private readonly again = new Map<string, RefreshJob>();
  private readonly runningByTenant = new Map<string, number>();
  private running = 0;
  private stopped = false;

  constructor(
    private readonly limits: RefreshQueueLimits,
    private readonly onFailure: (job: RefreshJob, err: unknown) => void,
  ) {}

  /** Queues a server's refresh unless it is queued already. */
  add(job: RefreshJob): void {
    if (this.stopped) return;
    const key = keyOf(job);
    if (this.queued.has(key)) return;
    if (this.active.has(key)) {
      this.again.set(key, job);
      return;
    }
    this.queued.add(key);
    const list = this.waiting.get(job.tenantId) ?? [];
    list.push(job);
    this.waiting.set(job.tenantId, list);
    this.pump();
  }

  /** Starts nothing more; running refreshes end on their own (or at their limit). */
  stop(): void {
    this.stopped = true;
    this.waiting.clear();
    this.queued.clear();
    this.again.clear();
  }

  /** Jobs waiting or running (for tests and logs). */
  get size(): number {
    return this.queued.size + this.active.size;
  }

  private pump(): void {
    while (!this.stopped && this.running < this.limits.concurrency) {
      const job = this.next();
      if (!job) return;
      this.start(job);
    }
  }

  /** The first job of the first tenant (in turn order) that may run one more; it then goes last. */
  private next(): RefreshJob | undefined {
    for (const [tenantId, list] of this.waiting) {
      if ((this.runningByTenant.get(tenantId) ?? 0) >= this.limits.perTenant) continue;
      const job = list.shift()!;
      this.queued.delete(keyOf(job));
      this.active.add(keyOf(job));
      this.waiting.delete(tenantId);
      if (list.length) this.waiting.set(tenantId, list);
      return job;
    }
    return undefined;
  }

  private start(job: RefreshJob): void {
    this.running++;
    this.runningByTenant.set(job.tenantId, (this.runningByTenant.get(job.tenantId) ?? 0) + 1);
    const limit = new AbortController();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.running--;
      this.runningByTenant.set(job.tenantId, this.runningByTenant.get(job.tenantId)! - 1);
      this.pump();
    };
    const timer = setTimeout(() => {
      limit.abort(new Error(`the refresh took longer than ${this.limits.timeoutMs} ms`));
      release();
    }, this.limits.timeoutMs);
    timer.unref?.();
    void Promise.resolve()
      .then(() => job.run(limit.signal))
      .catch((err: unknown) => this.onFailure(job, err))
      .finally(() => {
        clearTimeout(timer);
        release();
        this.finished(job);
      });
  }

  /** A server is forgotten once its refresh has settled (not at its limit: no second one piles up). */
  private finished(job: RefreshJob): void {
    const key = keyOf(job);
    this.active.delete(key);
    const rerun = this.again.get(key);
    this.again.delete(key);
    if (rerun) this.add(rerun);
  }
}

function keyOf(job: Pick<RefreshJob, 'tenantId' | 'serverId'>): string {
  return `${job.tenantId}\u0000${job.serverId}`;
}
