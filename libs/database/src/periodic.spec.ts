import type { Logger } from '@nestjs/common';
import { describe, expect, it, vi } from 'vitest';
import { PeriodicSweep, runPeriodically } from './periodic.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('runPeriodically', () => {
  it('never overlaps runs, reports failures and stops', async () => {
    let runs = 0;
    let active = 0;
    let maxActive = 0;
    const errors: string[] = [];
    const stop = runPeriodically(
      5,
      async () => {
        runs++;
        maxActive = Math.max(maxActive, ++active);
        await sleep(20);
        active--;
        throw new Error(`run ${runs}`);
      },
      (err) => errors.push(err.message),
    );
    // Waits for two runs rather than for a time two runs "surely" fit in (was `sleep(80)`).
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(2), { timeout: 10_000, interval: 5 });
    stop();
    await sleep(30);
    const after = runs;
    await sleep(30);
    expect(maxActive).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(runs).toBe(after);
    expect(errors).toEqual(Array.from({ length: runs }, (_, i) => `run ${i + 1}`));
  });
});

describe('PeriodicSweep', () => {
  it('sweeps from bootstrap to shutdown and logs a failed pass as a warning', async () => {
    const warnings: string[] = [];
    const logger = { warn: (m: string) => warnings.push(m) } as unknown as Logger;
    class Sweeper extends PeriodicSweep {
      passes = 0;
      constructor() {
        super(5, logger, 'sweep failed');
      }
      protected async sweep(): Promise<void> {
        if (++this.passes === 1) throw new Error('first pass');
      }
    }
    const s = new Sweeper();
    await sleep(20);
    expect(s.passes).toBe(0);
    s.onApplicationBootstrap();
    await vi.waitFor(() => expect(s.passes).toBeGreaterThanOrEqual(2), { timeout: 10_000, interval: 5 });
    s.onApplicationShutdown();
    const after = s.passes;
    await sleep(30);
    expect(after).toBeGreaterThanOrEqual(2);
    expect(s.passes).toBe(after);
    expect(warnings).toEqual(['sweep failed: first pass']);
  });
});
