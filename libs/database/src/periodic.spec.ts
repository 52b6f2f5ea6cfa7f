import { describe, expect, it } from 'vitest';
import { runPeriodically } from './periodic.js';

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
    await sleep(80);
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
