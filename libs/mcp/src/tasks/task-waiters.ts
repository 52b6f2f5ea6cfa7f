import { Injectable } from '@nestjs/common';

/** A tenant-keyed id (task ids and call ids are unique per tenant). */
export const taskKey = (tenantId: string, taskId: string) => `${tenantId}\u0000${taskId}`;

/**
 * `tasks/result` requests waiting on this gateway, woken at once when something here moves their
 * task (a decision, the call's answer, a cancel). Only a nudge: waiters also re-read the database
 * every poll interval, which is how a decision taken on another gateway reaches them.
 */
@Injectable()
export class TaskWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** Resolves on `wake(key)`, after `ms`, or when `signal` aborts, whichever comes first. */
  wait(key: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        const set = this.waiting.get(key);
        set?.delete(done);
        if (set?.size === 0) this.waiting.delete(key);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      const set = this.waiting.get(key) ?? new Set();
      set.add(done);
      this.waiting.set(key, set);
    });
  }

  wake(key: string): void {
    for (const done of [...(this.waiting.get(key) ?? [])]) done();
  }

  /** How many requests wait (for tests and metrics). */
  get size(): number {
    let n = 0;
    for (const s of this.waiting.values()) n += s.size;
    return n;
  }
}
