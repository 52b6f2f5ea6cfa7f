/** A tenant chain's newest event as this process last saw it committed. */
export interface KnownHead {
  readonly seq: number;
  readonly hash: string;
}

/** How many calls this process remembers having opened; beyond it the oldest are forgotten. */
const OPEN_CALLS_REMEMBERED = 100_000;

/**
 * This gateway's view of the chains it writes (ADR 017): each tenant's head as last committed by
 * or read from the database, and the calls whose `started` event it saw committed and whose
 * closing event it has not written yet. A view, never the truth: a stale head makes the next
 * append collide on `UNIQUE(tenant_id, seq)` and reload; a forgotten call sends its closing event
 * down the locked path, which reads the store.
 *
 * It also orders this process's appends per tenant: two batches of one tenant built from the same
 * head would only collide with each other.
 */
export class ChainHeadCache {
  private readonly heads = new Map<string, KnownHead>();
  private readonly opened = new Set<string>();
  private readonly tails = new Map<string, Promise<void>>();

  head(tenantId: string): KnownHead | undefined {
    return this.heads.get(tenantId);
  }

  /** Records a head seen committed (written by this process, or read from the store). */
  setHead(tenantId: string, head: KnownHead): void {
    this.heads.set(tenantId, head);
  }

  /** Forgets heads that may have moved without this process knowing the outcome. */
  forget(tenantIds: Iterable<string>): void {
    for (const t of tenantIds) this.heads.delete(t);
  }

  /** Whether this process saw the call's `started` committed (key: its started dedupe key). */
  isOpen(startedKey: string): boolean {
    return this.opened.has(startedKey);
  }

  markOpen(startedKey: string): void {
    this.opened.add(startedKey);
    if (this.opened.size > OPEN_CALLS_REMEMBERED) {
      const oldest = this.opened.values().next().value;
      if (oldest !== undefined) this.opened.delete(oldest);
    }
  }

  markClosed(startedKey: string): void {
    this.opened.delete(startedKey);
  }

  /**
   * Runs `work` after every earlier call of `exclusive` that shares a tenant with it has settled.
   * The turn is taken synchronously, so batches of one tenant run in the order they asked.
   */
  async exclusive<T>(tenantIds: readonly string[], work: () => Promise<T>): Promise<T> {
    const before = tenantIds.map((t) => this.tails.get(t)).filter((p) => p !== undefined);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    for (const t of tenantIds) this.tails.set(t, mine);
    try {
      if (before.length) await Promise.all(before);
      return await work();
    } finally {
      for (const t of tenantIds) if (this.tails.get(t) === mine) this.tails.delete(t);
      release();
    }
  }
}
