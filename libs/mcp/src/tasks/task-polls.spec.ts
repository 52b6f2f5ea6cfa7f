import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TaskPolls } from './task-polls.js';
import { taskKey, TaskWaiters } from './task-waiters.js';

const INTERVAL = 1_000;

describe('TaskPolls', () => {
  let waiters: TaskWaiters;
  let polls: TaskPolls;
  let reads: number;
  const read = async () => ({ read: ++reads });
  const poll = (task: string) => ({
    pollKey: `${taskKey('acme', task)}\u0000key_a\u0000ops`,
    wakeKey: taskKey('acme', task),
    intervalMs: INTERVAL,
  });
  /** A tasks/result request: asks for the next reading again and again until it leaves. */
  const waiter = (task: string, signal: AbortSignal, seen: number[]) => {
    const loop = async () => {
      while (!signal.aborted) {
        const r = await polls.next(poll(task), read, 60_000, signal);
        if (r) seen.push(r.read);
      }
    };
    return loop();
  };

  beforeEach(() => {
    vi.useFakeTimers();
    waiters = new TaskWaiters();
    polls = new TaskPolls(waiters);
    reads = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('reads a task once per interval however many requests wait on it, and hands each the reading', async () => {
    const controller = new AbortController();
    const seen = Array.from({ length: 50 }, () => [] as number[]);
    const loops = seen.map((s) => waiter('t1', controller.signal, s));
    for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(reads).toBe(5);
    expect(seen.every((s) => s.join() === '1,2,3,4,5')).toBe(true);
    // Another task has its own poll.
    const other: number[] = [];
    const otherLoop = waiter('t2', controller.signal, other);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(reads).toBe(7);
    expect(polls.size).toBe(2);
    controller.abort();
    await Promise.all([...loops, otherLoop]);
  });

  it('stops reading as soon as every request has left (clients gone), and reads nothing after', async () => {
    const clients = Array.from({ length: 50 }, () => new AbortController());
    const loops = clients.map((c) => waiter('t1', c.signal, []));
    await vi.advanceTimersByTimeAsync(3 * INTERVAL);
    expect(reads).toBe(3);
    // 49 leave: the one left still gets its readings.
    for (const c of clients.slice(1)) c.abort();
    await vi.advanceTimersByTimeAsync(2 * INTERVAL);
    expect(reads).toBe(5);
    clients[0]!.abort();
    await Promise.all(loops);
    expect(polls.size).toBe(0);
    await vi.advanceTimersByTimeAsync(30 * INTERVAL);
    expect(reads).toBe(5);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reads at once when something here moves the task (a decision), without waiting the interval', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const loop = waiter('t1', controller.signal, seen);
    await vi.advanceTimersByTimeAsync(10);
    waiters.wake(taskKey('acme', 't1'));
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([1]);
    controller.abort();
    await loop;
  });

  it('gives each waiting request the error of a read that failed', async () => {
    const failing = async () => {
      reads++;
      throw new Error('task not found');
    };
    const asked = polls.next(poll('t1'), failing, 60_000);
    const assertion = expect(asked).rejects.toThrow('task not found');
    await vi.advanceTimersByTimeAsync(INTERVAL);
    await assertion;
    await vi.advanceTimersByTimeAsync(5 * INTERVAL);
    expect(reads).toBe(1);
  });
});
