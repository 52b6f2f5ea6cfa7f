import { afterEach, describe, expect, it, vi } from 'vitest';
import { RefreshQueue, type RefreshJob } from './refresh-queue.js';

const limits = { concurrency: 2, perTenant: 1, timeoutMs: 30_000 };

/** A job that records its start and waits until released (or its signal fires). */
function held(tenantId: string, serverId: string, log: string[]) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  let signal: AbortSignal | undefined;
  const job: RefreshJob = {
    tenantId,
    serverId,
    run: async (s) => {
      signal = s;
      log.push(`start ${tenantId}/${serverId}`);
      await done;
      log.push(`end ${tenantId}/${serverId}`);
    },
  };
  return { job, release, signal: () => signal };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('RefreshQueue', () => {
  afterEach(() => vi.useRealTimers());

  it('lets tenants take turns and caps what one tenant holds', async () => {
    const log: string[] = [];
    const queue = new RefreshQueue(limits, () => undefined);
    const a = [held('a', '1', log), held('a', '2', log), held('a', '3', log)];
    const b = held('b', '1', log);
    for (const h of [...a, b]) queue.add(h.job);
    await settle();
    expect(log).toEqual(['start a/1', 'start b/1']);
    b.release();
    await settle();
    // b's slot is free, but a holds its share already: nothing of a starts until a/1 ends.
    expect(log).toEqual(['start a/1', 'start b/1', 'end b/1']);
    a[0]!.release();
    await settle();
    expect(log.slice(3)).toEqual(['end a/1', 'start a/2']);
  });

  it('gives a slot back at the time limit and aborts the refresh, without queueing it twice', async () => {
    vi.useFakeTimers();
    const log: string[] = [];
    const queue = new RefreshQueue({ concurrency: 1, perTenant: 1, timeoutMs: 1_000 }, () => undefined);
    const stuck = held('a', 'stuck', log);
    const next = held('b', 'next', log);
    queue.add(stuck.job);
    queue.add(next.job);
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['start a/stuck']);
    queue.add(stuck.job); // asked again while it runs: once more after it ends, not now
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stuck.signal()?.aborted).toBe(true);
    expect(log).toEqual(['start a/stuck', 'start b/next']);
    next.release();
    stuck.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(log.filter((l) => l === 'start a/stuck')).toHaveLength(2);
    queue.stop();
  });

  it('reports a failure and goes on with the next job', async () => {
    const failures: string[] = [];
    const queue = new RefreshQueue({ ...limits, concurrency: 1 }, (job, err) =>
      failures.push(`${job.serverId}: ${(err as Error).message}`),
    );
    const ran: string[] = [];
    queue.add({ tenantId: 'a', serverId: 'x', run: () => Promise.reject(new Error('down')) });
    queue.add({ tenantId: 'a', serverId: 'y', run: async () => void ran.push('y') });
    await settle();
    await settle();
    expect(failures).toEqual(['x: down']);
    expect(ran).toEqual(['y']);
    expect(queue.size).toBe(0);
  });
});
