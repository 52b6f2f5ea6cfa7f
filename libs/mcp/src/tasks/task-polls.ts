import { Injectable } from '@nestjs/common';
import { TaskWaiters } from './task-waiters.js';

/** A reading handed to the requests waiting on one task: the state read, or why it could not be. */
type Reading = { readonly value: unknown } | { readonly error: unknown };

/** One task's poll: the requests waiting for its next reading, and how it reads. */
interface Poll {
  readonly subscribers: Set<(reading: Reading) => void>;
  readonly read: () => Promise<unknown>;
  /** Ends the poll's wait at once when its last request leaves. */
  readonly stop: AbortController;
}

/**
 * The database reads of waiting `tasks/result` requests, one per task however many wait on it:
 * each task being waited for has one poll on this gateway, which reads every `intervalMs` (or at
 * once when something here moves the task, `TaskWaiters.wake`) and hands the reading to every
 * request waiting at that moment. A request that leaves (its client went away, its wait ended)
 * stops counting at once; a task nobody waits for any more is not read again.
 */
@Injectable()
export class TaskPolls {
  private readonly polls = new Map<string, Poll>();

  constructor(private readonly waiters: TaskWaiters) {}

  /**
   * The next reading of the task: `read`'s answer (the first waiting request's `read` serves all
   * of them: every request waiting on one `pollKey` must be allowed the same reading), or null
   * when `ms` passes or `signal` aborts before it. `wakeKey` is the task's TaskWaiters key.
   */
  next<T>(
    poll: { readonly pollKey: string; readonly wakeKey: string; readonly intervalMs: number },
    read: () => Promise<T>,
    ms: number,
    signal?: AbortSignal,
  ): Promise<T | null> {
    if (signal?.aborted) return Promise.resolve(null);
    const shared = this.pollOf(poll, read);
    return new Promise<T | null>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', gone);
        shared.subscribers.delete(take);
      };
      // Handed a reading: the request usually asks again at once, so the poll keeps its rhythm
      // (it ends after one more quiet interval if nobody does).
      const take = (reading: Reading) => {
        leave();
        if ('error' in reading) reject(reading.error as Error);
        else resolve(reading.value as T);
      };
      // Gone without a reading (client away, wait over): the last one to go ends the poll at once.
      const gone = () => {
        leave();
        if (shared.subscribers.size === 0) shared.stop.abort();
        resolve(null);
      };
      const timer = setTimeout(gone, ms);
      signal?.addEventListener('abort', gone, { once: true });
      shared.subscribers.add(take);
    });
  }

  /** How many tasks are being polled on this gateway (for tests and metrics). */
  get size(): number {
    return this.polls.size;
  }

  private pollOf(
    p: { readonly pollKey: string; readonly wakeKey: string; readonly intervalMs: number },
    read: () => Promise<unknown>,
  ): Poll {
    const running = this.polls.get(p.pollKey);
    if (running && !running.stop.signal.aborted) return running;
    const poll: Poll = { subscribers: new Set(), read, stop: new AbortController() };
    this.polls.set(p.pollKey, poll);
    void this.run(p, poll);
    return poll;
  }

  private async run(
    p: { readonly pollKey: string; readonly wakeKey: string; readonly intervalMs: number },
    poll: Poll,
  ): Promise<void> {
    try {
      for (;;) {
        await this.waiters.wait(p.wakeKey, p.intervalMs, poll.stop.signal);
        if (poll.subscribers.size === 0) return;
        let reading: Reading;
        try {
          reading = { value: await poll.read() };
        } catch (error) {
          reading = { error };
        }
        for (const take of [...poll.subscribers]) take(reading);
      }
    } finally {
      poll.stop.abort();
      if (this.polls.get(p.pollKey) === poll) this.polls.delete(p.pollKey);
    }
  }
}
