import { describe, expect, it } from 'vitest';
import { taskKey, TaskWaiters } from './task-waiters.js';

describe('TaskWaiters', () => {
  it('wakes the waiters of one task at once and leaves the others (tenant-keyed)', async () => {
    const waiters = new TaskWaiters();
    const t0 = Date.now();
    let otherDone = false;
    const mine = waiters.wait(taskKey('acme', 't1'), 10_000);
    const otherTenant = waiters.wait(taskKey('globex', 't1'), 200).then(() => (otherDone = true));
    expect(waiters.size).toBe(2);
    waiters.wake(taskKey('acme', 't1'));
    await mine;
    // Woken, not timed out: its own limit is 10 s (was `< 150 ms`; a hang guard now).
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(otherDone).toBe(false);
    await otherTenant;
    expect(waiters.size).toBe(0);
  });

  it('ends a wait when its signal aborts, and leaves nothing behind', async () => {
    const waiters = new TaskWaiters();
    const controller = new AbortController();
    const waiting = waiters.wait(taskKey('acme', 't2'), 10_000, controller.signal);
    controller.abort();
    await waiting;
    expect(waiters.size).toBe(0);
    await waiters.wait(taskKey('acme', 't2'), 10_000, controller.signal); // already aborted: at once
  });
});
