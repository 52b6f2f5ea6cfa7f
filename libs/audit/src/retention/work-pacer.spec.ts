import { describe, expect, it } from 'vitest';
import { WorkPacer } from './work-pacer.js';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('WorkPacer', () => {
  it('rests in proportion to the step, so the work keeps to its share of the time', async () => {
    const pacer = new WorkPacer(0.25);
    busy(20);
    const t0 = performance.now();
    await pacer.rest();
    // 20 ms of work at a quarter share: at least 60 ms of rest (timers never fire early).
    expect(performance.now() - t0).toBeGreaterThanOrEqual(59);
  });

  it('rests at least the minimum pause, and only yields at a full share', async () => {
    const floor = new WorkPacer(1, 30);
    const t0 = performance.now();
    await floor.rest();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(29);

    const full = new WorkPacer(1);
    busy(20);
    let yielded = false;
    setImmediate(() => (yielded = true));
    await full.rest();
    expect(yielded).toBe(true);
  });
});
