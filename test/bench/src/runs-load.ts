/** What a closed loop of runs measured: completions inside the window, their latencies. */
export interface LoopResult {
  readonly runsPerS: number;
  /** Every run that ended well, warm-up included (to divide CPU time by). */
  readonly completed: number;
  readonly latenciesMs: number[];
  readonly errors: number;
  readonly firstError?: string;
}

/**
 * `concurrency` workers each start a run as soon as their last one ended, for a 1 s warm-up plus
 * `durationS`; the runs that end inside the measured window count (runs/s, their latencies).
 */
export async function closedLoop(
  concurrency: number,
  durationS: number,
  runOnce: (n: number) => Promise<void>,
): Promise<LoopResult> {
  const measureFrom = performance.now() + 1000;
  const endAt = measureFrom + durationS * 1000;
  const latenciesMs: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  let completed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < endAt) {
        const t0 = performance.now();
        try {
          await runOnce(next++);
        } catch (err) {
          errors++;
          firstError ??= (err as Error).message;
          continue;
        }
        completed++;
        const t1 = performance.now();
        if (t1 >= measureFrom && t1 <= endAt) latenciesMs.push(t1 - t0);
      }
    }),
  );
  return { runsPerS: latenciesMs.length / durationS, completed, latenciesMs, errors, firstError };
}
